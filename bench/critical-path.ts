import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CITED_STEP } from '../harness/case';

/**
 * The critical path of a run as executed, rebuilt from its Allure results (used by the bench only).
 * Every exchange is an Allure step written when its answer arrived, whose attachment gives its
 * duration (from the moment the case asked to send it, so a wait for a connection slot counts): that
 * gives each request's [start, end] and the test it belongs to. From the request that ended last, the
 * path goes back to the request this one waited for: the test's own previous request where there is
 * one, else (the test's first request, which waited for a lock or a slot) whichever request of any
 * test ended last before it started. That last step is a guess: the lock a test waited for is not
 * recorded, so where two chains run side by side the path may jump from one to the other.
 */

interface Step {
  name: string;
  start?: number;
  stop?: number;
  steps?: Step[];
  attachments?: Array<{ source: string }>;
}

export interface Request {
  test: string;
  start: number;
  end: number;
}

export function requestsOf(resultsDir: string): Request[] {
  const out: Request[] = [];
  for (const f of readdirSync(resultsDir).filter((n) => n.endsWith('-result.json'))) {
    const r = JSON.parse(readFileSync(join(resultsDir, f), 'utf8')) as Step & {
      fullName?: string;
      labels?: Array<{ name: string; value: string }>;
    };
    const feature = r.labels?.find((l) => l.name === 'feature')?.value ?? '';
    // Titles shared by several operations already start with the operation's name.
    const test = r.name.startsWith(`${feature.replace(/^\d+\. /, '')}:`) ? r.name : `${feature}: ${r.name}`;
    const walk = (s: Step) => {
      for (const st of s.steps ?? []) {
        if (st.name.startsWith(CITED_STEP)) continue; // sent by another test, counted there
        for (const a of st.attachments ?? []) {
          const text = readFileSync(join(resultsDir, a.source), 'utf8');
          const ms = /^(?:HTTP \d+ {3}\(|no answer: .*\()([\d.]+) ms/m.exec(text);
          if (ms && st.stop !== undefined) out.push({ test, start: st.stop - Number(ms[1]), end: st.stop });
        }
        walk(st);
      }
    };
    walk(r);
  }
  return out.sort((a, b) => a.end - b.end);
}

/** The chain of requests that ended the run, oldest first, grouped by test: [test, requests]. */
export function criticalPath(requests: Request[], slackMs = 2): { requests: number; byTest: Array<[string, number]> } {
  if (requests.length === 0) return { requests: 0, byTest: [] };
  const chain: Request[] = [requests[requests.length - 1]!];
  for (let cur = chain[0]!; ; ) {
    const before = requests.filter((r) => r !== cur && r.end <= cur.start + slackMs);
    const prev = before.filter((r) => r.test === cur.test).pop() ?? before.pop();
    if (!prev) break;
    chain.unshift(prev);
    cur = prev;
  }
  const byTest: Array<[string, number]> = [];
  for (const r of chain) {
    const last = byTest[byTest.length - 1];
    if (last && last[0] === r.test) last[1]++;
    else byTest.push([r.test, 1]);
  }
  return { requests: chain.length, byTest };
}
