import { connect } from 'node:net';
import { reportWithoutRun, type CaseDef, type Feature } from '../case';
import { baseKeyOf, baseUrlOf, type TargetConfig } from '../config';
import type { BaseKey } from '../http/client';
import { afterIo } from '../http/loop-bound';
import type { Area, CaseReport } from '../model';
import { OPERATIONS, type OperationDef } from '../operations';
import type { Redactor } from '../redact';
import { FEATURES_BY_AREA } from '../../suites';
import { selects, type CaseFilter } from './filter';

/**
 * The reachability preflight of a run against a configured target (issue 20): before the test
 * runner starts, one TCP connection to each distinct origin the selected areas send to (or to
 * http.proxyUrl, which every request goes through). Where EVERY one of them refuses the connection
 * or does not resolve, no test could send anything: the runner is not started, and every selected
 * test is "could not test", naming the URL and the configuration key to check. That takes well
 * under a second, where the run used to take 7-10 s to find the same, and no test may claim it
 * changed anything. Anything else (one origin up, a connection that neither opens nor fails
 * within the preflight's bound, a temporary DNS failure) is not conclusive: the run goes on as
 * before, and the client judges every request.
 */

/** The connect errors that say for certain nothing is listening there (or the name does not exist). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH']);

/** How long one preflight connection may take: a run whose target is slow to accept is only delayed this much. */
export function preflightTimeoutMs(timeoutMs: number): number {
  return Math.min(timeoutMs, 2_000);
}

/** The base URL keys the selected areas' requests go to: those of the areas' operations. */
export function basesOf(areas: readonly Area[]): BaseKey[] {
  const keys = Object.values(OPERATIONS)
    .filter((o) => areas.includes(o.area))
    .map((o) => o.base);
  return [...new Set(keys)];
}

export interface Origin {
  /** scheme://host:port as shown (no user info, no path). */
  url: string;
  host: string;
  port: number;
  /** The configuration keys whose URL is this origin. */
  keys: string[];
}

/** The distinct origins the selected areas connect to: http.proxyUrl when set, else those of their base URLs. */
export function originsOf(config: TargetConfig, areas: readonly Area[]): Origin[] {
  const proxy = config.http.proxyUrl;
  // contactInfoBaseUrl, when not set, is baseUrl: named by the key the operator set.
  const bases = [...new Set(basesOf(areas).map((k) => baseKeyOf(config, k)))];
  const named: Array<[string, string]> = proxy
    ? [['http.proxyUrl', proxy]]
    : bases.map((k) => [k, baseUrlOf(config, k)]);
  const out = new Map<string, Origin>();
  for (const [key, raw] of named) {
    const u = new URL(raw);
    const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    const url = `${u.protocol}//${u.host}`;
    const o = out.get(url) ?? { url, host: u.hostname.replace(/^\[|\]$/g, ''), port, keys: [] };
    o.keys.push(key);
    out.set(url, o);
  }
  return [...out.values()];
}

/**
 * One TCP connection: the error code when it certainly cannot be made; undefined if it opened or the bound passed
 * (after what arrived by then: harness/http/loop-bound.ts).
 */
export function connectRefusal(host: string, port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, autoSelectFamily: true });
    let settled = false;
    const done = (code: string | undefined) => {
      if (settled) return;
      settled = true;
      timer.clear();
      socket.destroy();
      resolve(code);
    };
    const timer = afterIo(timeoutMs, () => done(undefined));
    socket.once('connect', () => done(undefined));
    socket.once('error', (e: NodeJS.ErrnoException) => done(e.code && UNREACHABLE.has(e.code) ? e.code : undefined));
  });
}

export interface Unreachable {
  /** Every origin the run would use, each with the error its connection got. */
  origins: Array<Origin & { code: string }>;
  /** The one console line that names them. */
  line: string;
  /** Every selected test, "could not test", with the key to check. */
  cases: CaseReport[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The preflight: undefined when the run can go on (some origin answered, or nothing is certain);
 * else what to report. A refusal is tried again like the client tries a request that sent nothing
 * (http.retries times, at most twice, 200 ms apart): a target that is restarting is not judged on one try.
 */
export async function preflight(
  config: TargetConfig,
  areas: readonly Area[],
  filter: CaseFilter,
  redactor: Redactor,
): Promise<Unreachable | undefined> {
  const origins = originsOf(config, areas);
  if (origins.length === 0) return undefined;
  const tries = 1 + Math.min(config.http.retries, 2);
  const bound = preflightTimeoutMs(config.http.timeoutMs);
  const codes = await Promise.all(
    origins.map(async (o) => {
      let code: string | undefined;
      for (let n = 0; n < tries; n++) {
        if (n) await sleep(200 * n);
        code = await connectRefusal(o.host, o.port, bound);
        if (!code) return undefined;
      }
      return code;
    }),
  );
  if (codes.some((c) => c === undefined)) return undefined;
  const refused = origins.map((o, i) => ({ ...o, url: redactor.text(o.url), code: codes[i]! }));
  const named = refused.map((o) => `${o.url} (${o.keys.join(', ')}: ${o.code})`).join(', ');
  const line = `no connection to ${named}: nothing was sent and no test was run; is the target running there?`;
  const cases: CaseReport[] = [];
  for (const area of areas) {
    for (const f of FEATURES_BY_AREA[area]) {
      for (const c of f.cases) if (selects(filter, f, c)) cases.push(notRun(f, c, refused, config));
    }
  }
  return { origins: refused, line, cases };
}

/** A selected test the preflight stopped: could not test, naming the key of the base URL its operation uses. */
function notRun(f: Feature, c: CaseDef, refused: Unreachable['origins'], config: TargetConfig): CaseReport {
  const op: OperationDef = OPERATIONS[f.operation];
  const base = baseKeyOf(config, op.base);
  // A test of an operation whose switch is off would have sent nothing either way: skipped, as in any run.
  if (op.mutates && !config.allow[op.mutates]) {
    return reportWithoutRun(f, c, 'not-allowed', `skipped: not allowed on this target (allow.${op.mutates} is off)`);
  }
  const key = config.http.proxyUrl ? 'http.proxyUrl' : base;
  const o = refused.find((r) => r.keys.includes(key)) ?? refused[0]!;
  const what = o.code === 'ENOTFOUND' ? 'its host name does not resolve' : `the connection was refused`;
  const problem = `no connection to ${o.url} (${key}): ${what} (${o.code}), so nothing was sent`;
  const reason = `could not test: ${problem}; check ${key} (is the target running there?)`;
  return reportWithoutRun(f, c, 'could-not-test', reason, { key, problem });
}
