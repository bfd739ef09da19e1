import type { CaseReport, Exchange } from '../model';
import type { BaseUrlKey } from '../operations';
import { suspicionText, type SetupProof } from './proof';
import { CREDENTIAL_SOURCES } from '../credentials';
import { transportFindings } from './transport';

/** One thing about the operator's setup that kept tests from a verdict, and the key or variable to check. */
export interface SetupFinding {
  /** The configuration key or variable to check, e.g. "DBSI_BEARER_TOKEN (credentials.bearerToken)", "baseUrl". */
  key: string;
  /** What the run saw, and what to check. */
  problem: string;
  /** Titles of the tests it left without a verdict. */
  tests: string[];
}

/**
 * The run's diagnosis: every setup problem the tests met (CaseReport.setup, set by the cases or by
 * the re-grading of harness/setup/proof.ts), grouped by key, plus what the proofs show by themselves
 * (a credential refused everywhere, a base URL that served nothing) and a target that shed load.
 */
export function setupFindings(cases: readonly CaseReport[], proof: SetupProof): SetupFinding[] {
  const byKey = new Map<string, SetupFinding>();
  const add = (key: string, problem: string, test?: string) => {
    const f = byKey.get(key) ?? byKey.set(key, { key, problem, tests: [] }).get(key)!;
    if (test && !f.tests.includes(test)) f.tests.push(test);
  };
  // One root cause first: a credential that flipped during the run explains every refusal after it.
  for (const { id, flip } of proof.flipped())
    add(CREDENTIAL_SOURCES[id], suspicionText({ kind: 'expired', key: id, flip }, flip.firstRefused));
  // A base URL that served nothing explains every test that sent there, whatever key the test named.
  const bases = new Map<string, { key: BaseUrlKey; e: Exchange }>(
    proof.unprovenBases().map(({ key, exchanges }) => [key, { key, e: exchanges[0]! }]),
  );
  for (const { key, exchanges } of proof.unprovenBases()) add(key, suspicionText({ kind: 'base', key }, exchanges[0]!));
  for (const c of cases) {
    // The target's (an unserved operation's refusal, a value served then refused): its test says so; no finding.
    if (!c.setup || c.setup.target) continue;
    const where = (e: Exchange) => [e.base, e.declaredPath].find((x) => x && bases.has(x));
    const at = c.exchanges.map(where).find((x) => x !== undefined);
    const base = at ? bases.get(at) : undefined;
    if (base && !bases.has(c.setup.key)) add(base.key, suspicionText({ kind: 'base', key: base.key }, base.e), c.title);
    else add(c.setup.key, c.setup.problem, c.title);
  }
  for (const f of transportFindings(cases))
    for (const t of f.tests.length ? f.tests : [undefined]) add(f.key, f.problem, t);
  for (const { id, exchanges, nearVariant } of proof.refusedEverywhere()) {
    add(CREDENTIAL_SOURCES[id], suspicionText({ kind: 'credential', key: id, nearVariant }, exchanges[0]!));
  }
  const paced = pacing(cases.flatMap((c) => c.exchanges));
  if (paced) {
    const key = 'http.concurrency / http.rateLimitPerSecond';
    add(key, paced);
    // The tests that could not be judged because an answer of theirs came while the target shed load.
    for (const c of cases) {
      if (c.outcome === 'could-not-test' && !c.setup && c.exchanges.some((e) => e.shedLoad)) add(key, paced, c.title);
    }
  }
  return foldGroups([...byKey.values()]);
}

/**
 * A group's finding (testData.transfer (fromAccountId, …)) beside findings of its members (testData.transfer.
 * currencyCode, whose refusals quoted or named that member): the group's refusals said nothing finer, so its tests go
 * to the first member's finding; the group is not named beside them (session 41).
 */
function foldGroups(findings: SetupFinding[]): SetupFinding[] {
  return findings.filter((f) => {
    const group = /^(testData\.[A-Za-z]+) \(/.exec(f.key)?.[1];
    const finer = group && findings.find((x) => x.key.startsWith(`${group}.`));
    if (!finer) return true;
    for (const t of f.tests) if (!finer.tests.includes(t)) finer.tests.push(t);
    return false;
  });
}

/** "the target shed load (12 answers 429/5xx in bursts): the run paced itself down to 2 in flight, 5 requests/s". */
function pacing(exchanges: Exchange[]): string | undefined {
  const shed = exchanges.filter((e) => e.shedLoad).length;
  const paced = exchanges.map((e) => e.pacedTo).filter((p): p is NonNullable<Exchange['pacedTo']> => !!p);
  if (!shed && !paced.length) return undefined;
  const low = paced.reduce(
    (m, p) => ({
      concurrency: Math.min(m.concurrency, p.concurrency),
      ratePerSecond: Math.min(m.ratePerSecond, p.ratePerSecond),
    }),
    { concurrency: Infinity, ratePerSecond: Infinity },
  );
  const s = (n: number) => (n === 1 ? '' : 's');
  const rate = Math.round(low.ratePerSecond * 10) / 10;
  const to = paced.length
    ? `: the run paced itself, down to ${low.concurrency} request${s(low.concurrency)} in flight and ${rate} requests/s`
    : '';
  const spare = 'set http.concurrency and http.rateLimitPerSecond below its limit to spare it';
  return `the target shed load (${shed} answer${s(shed)} 429/5xx in bursts)${to}; ${spare}`;
}

/** The block that closes the console output and the summary (plain lines). */
export function diagnosisBlock(findings: readonly SetupFinding[]): string[] {
  if (findings.length === 0) return [];
  const out = [
    'DIAGNOSIS: what the run met in the setup, not in the target (these are never counted as non-conformance):',
  ];
  for (const f of findings) {
    out.push(`  ? ${f.key}`, `      ${f.problem.split('\n')[0]}`);
    if (f.tests.length) {
      const shown = f.tests
        .slice(0, 3)
        .map((t) => `"${t}"`)
        .join(', ');
      const n = f.tests.length;
      out.push(`      ${n} test${n === 1 ? '' : 's'} could not test: ${shown}${n > 3 ? ', …' : ''}`);
    }
  }
  return out;
}
