import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { Area } from '../harness/model';
import { parseHar, type HarEntry } from '../harness/traffic/har';
import { judgeHar } from '../harness/traffic/run';
import { FAULTS } from '../reference-target/faults';
import { brokenRequirements, exemptIfNotShown, recordActiveRun, TRAFFIC_COLLATERAL } from './_recorded-run';

/**
 * The order of a capture as a browser writes it: startedDateTime rounded to the millisecond, a
 * fractional time, a client that awaits each answer and sends the next request a fraction of a
 * millisecond later (so a list often starts in the millisecond in which the write before it
 * ended), lower-case header names and Authorization in clear. The suite's own run, one case at a
 * time, against the reference target, recorded and then rewritten so: every state rule a fault
 * breaks is caught (every fault a capture shows), and the conformant target's capture breaks nothing.
 */

/** Each exchange takes 0.2 ms; the next starts 0.02 ms after its answer (four or five a millisecond). */
const TIME_MS = 0.2;
const GAP_MS = 0.02;

type RecordedCredential = { label?: string; scheme: string; wellFormedBasic?: boolean };

/** A credential in clear, as a browser's "with sensitive data" export keeps it: one per label of the recording. */
function clearAuthorization(c: RecordedCredential): string {
  const label = c.label ?? 'unlabelled';
  if (c.scheme === 'bearer') return `Bearer browser-token-${label}-0123456789`;
  if (c.scheme === 'basic') {
    const pair = c.wellFormedBasic === false ? `no-colon-${label}` : `key-${label}:secret-${label}`;
    return `Basic ${Buffer.from(pair).toString('base64')}`;
  }
  return `${c.scheme} browser-${label}-0123456789`;
}

/** The recorder's HAR rewritten as a browser would have written the same session. */
export function browserStyle(text: string): string {
  const doc = JSON.parse(text) as { log: { entries: Array<HarEntry & { _dbsiCredential?: RecordedCredential }> } };
  let clock = Date.parse('2026-11-20T09:00:00.000Z');
  for (const e of doc.log.entries) {
    e.startedDateTime = new Date(Math.floor(clock)).toISOString();
    e.time = TIME_MS;
    e.timings = { send: 0.1, wait: TIME_MS - 0.2, receive: 0.1 };
    clock += TIME_MS + GAP_MS;
    const credential = e._dbsiCredential;
    delete e._dbsiCredential;
    const clear = (name: string, value: string) =>
      /^authorization$/i.test(name) && credential ? clearAuthorization(credential) : value;
    e.request.headers = (e.request.headers ?? []).map((h) => ({
      name: h.name.toLowerCase(),
      value: clear(h.name, h.value),
    }));
    if (e.response) e.response.headers = (e.response.headers ?? []).map((h) => ({ ...h, name: h.name.toLowerCase() }));
  }
  return JSON.stringify(doc);
}

async function judgedBrowserStyle(areas: Area[], faults: string[] = [], strict = false) {
  const rec = await recordActiveRun({ areas, faults, sequential: true, strict });
  const har = parseHar(browserStyle(readFileSync(rec.har, 'utf8')));
  const j = await judgeHar(har, undefined, { file: 'browser.har', strict, specUrl: 'spec.md' });
  const broken = new Set([...brokenRequirements(j, strict)].filter((id) => id !== 'CLIENT-REQUEST-AS-DOCUMENTED'));
  return { j, broken, rec };
}

describe('a browser-style capture of a sequential client (millisecond times, sub-millisecond gaps)', () => {
  const areas = [['disclosures'], ['contact-info']] as const;
  test.each(areas)('of the conformant target breaks nothing (%s)', async (area) => {
    const { broken, j } = await judgedBrowserStyle([area]);
    expect([...broken]).toEqual([]);
    expect(j.cases.length).toBeGreaterThan(10);
  });

  // Every fault the recorded traffic of the suite shows (the others: exemptIfNotShown, derived from the rules).
  const faults = FAULTS.filter((f) => !f.variant).map((f) => [f.name, f] as const);
  test.for(faults)('%s is caught', async ([_name, fault], ctx) => {
    const { broken, rec } = await judgedBrowserStyle([fault.area], [fault.name], fault.strict ?? false);
    const allowed = new Set([...fault.breaks, ...(fault.collateral ?? []), ...(TRAFFIC_COLLATERAL[fault.name] ?? [])]);
    expect(
      [...broken].filter((id) => !allowed.has(id)),
      "nothing but the fault's rule may be broken",
    ).toEqual([]);
    if (await exemptIfNotShown(rec.active, fault, ctx)) return;
    for (const id of fault.breaks) expect([...broken], `${fault.name} must be judged as ${id} broken`).toContain(id);
  });
});
