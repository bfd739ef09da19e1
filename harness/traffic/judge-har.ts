import { basename } from 'node:path';
import { resolveConfig, secretValues, type TargetConfig } from '../config';
import type { RunSettings } from '../run-settings';
import { AREAS, type Area, type CaseReport } from '../model';
import { OPERATIONS } from '../operations';
import { Redactor } from '../redact';
import { coverageOf, type Coverage } from '../run/coverage';
import { observeAll, type Observed } from './capture';
import type { HarLog } from './har';
import { judgeCapture, seenOf, type ExchangeLine } from './judge';
import { stateCoverage, type StateCoverage } from '../state/coverage';
import { inferBaseUrls, mapEntry, type BaseUrls, type Ignored, type Mapped } from './operation-map';
import { captureSecrets, keepsAuthorization } from './secrets';

export interface HarJudgement {
  observed: Observed[];
  mapped: Array<{ x: Observed; m: Mapped }>;
  ignored: Record<string, number>;
  baseNotes: string[];
  /** The configured secrets and every credential found in the capture. */
  secrets: string[];
  redactor: Redactor;
  settings: RunSettings;
  areasWithAuth: Set<Area>;
  cases: CaseReport[];
  lines: ExchangeLine[];
  /** Which transitions of the state the capture took and read back (harness/state/coverage/). */
  states?: StateCoverage;
}

/**
 * Judge a read capture: map its entries to operations (by the configuration's base URLs, else by
 * those inferred from the spec's distinctive paths), find its credentials, judge every exchange.
 * When no entry maps to an operation, `mapped` is empty and nothing was judged.
 */
export async function judgeHar(
  log: { log: HarLog; unreadable: number },
  config: TargetConfig | undefined,
  o: { file: string; strict: boolean; specUrl: string },
): Promise<HarJudgement> {
  const observed = observeAll(log.log.entries);
  let bases: BaseUrls;
  let baseNotes: string[];
  if (config) {
    bases = { baseUrl: config.baseUrl, authBaseUrl: config.authBaseUrl, transfersBaseUrl: config.transfersBaseUrl };
    const contact = config.contactInfoBaseUrl;
    if (contact && contact !== config.baseUrl) bases.contactInfoBaseUrl = contact;
    baseNotes = [`from the configuration: ${config.baseUrl}, ${config.authBaseUrl}, ${config.transfersBaseUrl}`];
  } else {
    const inferred = inferBaseUrls(observed);
    bases = inferred.bases;
    baseNotes = inferred.notes.map((n) => `inferred ${n}`);
  }
  const ignored: Record<string, number> = {
    'other host': 0,
    'not an API path': 0,
    'undocumented method': 0,
    'not a URL': 0,
    'not a HAR entry': log.unreadable,
  };
  const mapped: Array<{ x: Observed; m: Mapped }> = [];
  for (const x of observed) {
    const m = mapEntry(x, bases, config?.paths);
    if ('ignored' in m) ignored[m.ignored as Ignored]!++;
    else mapped.push({ x, m });
  }
  // Every credential of the capture is a secret from here on, with the configured ones.
  const secrets = [...(config ? secretValues(config) : []), ...captureSecrets(observed)];
  const redactor = new Redactor(secrets);
  const effective =
    config ??
    resolveConfig(
      {
        name: `recorded traffic ${basename(o.file)}`,
        baseUrl: bases.baseUrl ?? 'http://127.0.0.1/',
        authBaseUrl: bases.authBaseUrl ?? 'http://127.0.0.1/',
        transfersBaseUrl: bases.transfersBaseUrl ?? 'http://127.0.0.1/',
        http: { allowInsecureHttp: true },
      },
      {},
    );
  const settings: RunSettings = { config: effective, seed: 0, strict: o.strict, runId: 'traffic', specUrl: o.specUrl };
  const areasWithAuth = new Set<Area>(
    AREAS.filter((a) =>
      keepsAuthorization(mapped.filter(({ m }) => OPERATIONS[m.operation].area === a).map(({ x }) => x)),
    ),
  );
  let cases: CaseReport[] = [];
  let lines: ExchangeLine[] = [];
  let states: StateCoverage | undefined;
  if (mapped.length) {
    const seen = seenOf(mapped, redactor, (a) => areasWithAuth.has(a));
    states = stateCoverage(seen);
    ({ cases, lines } = await judgeCapture(seen, { settings, redactor }));
  }
  return { observed, mapped, ignored, baseNotes, secrets, redactor, settings, areasWithAuth, cases, lines, states };
}

/**
 * Which selected areas the traffic showed a rule of the target in (a check passed or failed; the
 * client's own request, CLIENT-REQUEST-AS-DOCUMENTED, is no evidence about the target).
 */
export function trafficCoverage(cases: CaseReport[], selected: Area[], exchanged: Set<Area>): Coverage {
  const aboutTarget = (k: CaseReport['checks'][number]) =>
    k.requirement !== 'CLIENT-REQUEST-AS-DOCUMENTED' && (k.outcome === 'passed' || k.outcome === 'failed');
  const evidence = cases.filter((c) => c.checks.some(aboutTarget));
  const cov = coverageOf(evidence, selected);
  const why = (a: Area) =>
    `not observed: ${exchanged.has(a) ? 'its exchanges show no rule of the target' : 'no exchange in the capture'}`;
  return { ...cov, notTested: cov.notTested.map((n) => ({ area: n.area, reason: why(n.area) })) };
}
