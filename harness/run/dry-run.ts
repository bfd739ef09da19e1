import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CaseContext, runCase, type RunSettings } from '../case';
import { baseUrlOf, secretValues, type CustomerData, type TargetConfig } from '../config';
import { DbsiClient, fillPath, type SendOptions } from '../http/client';
import type { Area, SafetySwitch } from '../model';
import { OPERATIONS } from '../operations';
import { Redactor } from '../redact';
import { exploreBudget, type ExploreSettings } from '../explore-settings';
import { FEATURES_BY_AREA } from '../../suites';
import { referenceConfig } from '../../reference-target/config';
import { startReferenceTarget } from '../../reference-target/server';
import { plural } from './console';
import { selects, type CaseFilter } from './filter';

/** One request of the plan, as the configured target would receive it. */
export interface PlannedRequest {
  method: string;
  /** On the configured target's base URL, with its test data; secrets redacted. */
  url: string;
  operation: string;
  /** The allow.* switch the harness requires for it, if it changes something. */
  safetySwitch?: SafetySwitch;
  /** False: the switch is off, so the harness would refuse it before it leaves the machine. */
  sent: boolean;
}

export interface PlannedTest {
  area: Area;
  operation: string;
  title: string;
  requests: PlannedRequest[];
  /** Tests whose requests this one is judged on (a scenario several tests share), by title. */
  judgedOn: string[];
  /** Why the test sends nothing of its own where the harness refuses it (e.g. contact data nobody confirmed). */
  skipped?: string;
}

export const DRY_RUN_FILE = 'dry-run-plan.md';

/** Leaf values of an object by path ("customer.customerId"). */
function leaves(o: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  if (o && typeof o === 'object') {
    for (const [k, v] of Object.entries(o))
      for (const [p, x] of leaves(v, prefix ? `${prefix}.${k}` : k)) out.set(p, x);
  } else if (typeof o === 'string') out.set(prefix, o);
  return out;
}

/**
 * The rehearsal's test data replaced by the configured target's, in URLs (plain and URL-encoded):
 * the values at the same place in testData. Short values (a country code "1") are left alone, they
 * would match inside other text.
 */
function testDataRewriter(from: TargetConfig, to: TargetConfig): (s: string) => string {
  const mine = leaves(to.testData);
  const pairs: Array<[string, string]> = [];
  for (const [path, value] of leaves(from.testData)) {
    const target = mine.get(path);
    if (target === undefined || target === value || value.length < 4) continue;
    pairs.push([value, target], [encodeURIComponent(value), encodeURIComponent(target)]);
  }
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (s) => pairs.reduce((acc, [a, b]) => acc.split(a).join(b), s);
}

/**
 * --dry-run: the plan of every request a run would send to the configured target, sending nothing to
 * it. The selected cases run against the embedded reference target, started in this process with the
 * target's safety switches; each request is recorded with the switch the harness requires for it,
 * and rewritten to the target's base URLs and test data. Requests that depend on the target's answers
 * (ids it returns, records it lists) follow what the reference target answered, so the plan is that
 * of a run against a conformant target.
 */
export async function planRequests(
  configured: TargetConfig | undefined,
  areas: Area[],
  filter: CaseFilter,
  seed: number,
  explore?: ExploreSettings,
): Promise<{ tests: PlannedTest[]; target: TargetConfig }> {
  const reference = await startReferenceTarget();
  try {
    const embedded = !configured;
    const { rehearsal, config } = rehearsalOf(reference, configured);
    const settings: RunSettings = {
      config: rehearsal,
      seed,
      strict: false,
      runId: `r${seed.toString(36).slice(-4)}`,
      specUrl: '',
      // The explorer's budget of the run planned (on a configured target its smaller default).
      explore: explore ?? exploreBudget({}, embedded),
    };
    const client = new DbsiClient(rehearsal, new Redactor(secretValues(rehearsal)));
    const toTarget = embedded ? (s: string) => s : testDataRewriter(rehearsal, config);
    const plan: Plan = { client, rehearsal, config, toTarget, targetRedactor: new Redactor(secretValues(config)) };
    const jobs = areas.flatMap((area) =>
      FEATURES_BY_AREA[area].flatMap((f) =>
        f.cases.filter((c) => selects(filter, f, c)).map((c) => planCase(plan, settings, area, f, c)),
      ),
    );
    const tests = await Promise.all(jobs);
    await client.close();
    return { tests, target: config };
  } finally {
    await reference.close();
  }
}

/** What planning a case needs: the rehearsal's client and configuration, and how a URL is put on the target. */
interface Plan {
  client: DbsiClient;
  rehearsal: TargetConfig;
  config: TargetConfig;
  toTarget: (s: string) => string;
  targetRedactor: Redactor;
}

/** The reference target's configuration, shaped like the target's test data: as many customers, its optional values. */
function rehearsalOf(
  reference: Parameters<typeof referenceConfig>[0],
  configured: TargetConfig | undefined,
): { rehearsal: TargetConfig; config: TargetConfig } {
  const embedded = !configured;
  const rehearsal = referenceConfig(reference, { allow: configured && { ...configured.allow } });
  const config = configured ?? rehearsal;
  const td = rehearsal.testData;
  // A configured target's e-mail and postal address, and its country codes, are sent only where it confirms them (as
  // in a run).
  const confirmed = (c: CustomerData, i?: number) => {
    const own = i === undefined ? config.testData.customer : config.testData.moreCustomers[i];
    return {
      ...c,
      emailAndPostalConfirmed: own?.emailAndPostalConfirmed,
      countryCodeConfirmed: own?.countryCodeConfirmed,
    };
  };
  return {
    config,
    rehearsal: {
      ...rehearsal,
      ...(embedded ? {} : { ownTarget: false }),
      testData: {
        ...td,
        ...(embedded ? {} : { customer: confirmed(td.customer) }),
        moreCustomers: td.moreCustomers
          ?.slice(0, config.testData.moreCustomers?.length ?? 0)
          .map((c, i) => (embedded ? c : confirmed(c, i))),
        institutionCustomerId: config.testData.institutionCustomerId,
        accountType: config.testData.accountType,
      },
    },
  };
}

/** The URL on the configured target: its base URL and its test data. */
function onTarget(plan: Plan, url: string, own?: keyof Pick<TargetConfig, 'contactInfoBaseUrl'>): string {
  for (const key of [...(own ? [own] : []), 'baseUrl', 'authBaseUrl', 'transfersBaseUrl'] as const) {
    const base = baseUrlOf(plan.rehearsal, key).replace(/\/+$/, '');
    if (url.startsWith(base))
      return baseUrlOf(plan.config, key).replace(/\/+$/, '') + plan.toTarget(url.slice(base.length));
  }
  return plan.toTarget(url);
}

async function planCase(
  plan: Plan,
  settings: RunSettings,
  area: Area,
  f: (typeof FEATURES_BY_AREA)[Area][number],
  c: (typeof FEATURES_BY_AREA)[Area][number]['cases'][number],
): Promise<PlannedTest> {
  const requests: PlannedRequest[] = [];
  const ctx = new CaseContext(settings, planningClient(plan, requests), f, c);
  const report = await runCase(ctx);
  const skipped = report.outcome === 'not-allowed' && !requests.length ? report.reason : undefined;
  return {
    ...(skipped ? { skipped: plan.targetRedactor.text(skipped) } : {}),
    area,
    operation: `${OPERATIONS[f.operation].number}. ` + `${OPERATIONS[f.operation].name}`,
    title: c.title,
    requests,
    judgedOn: ctx.citedFrom,
  };
}

/** The case's own view of the client: every request is planned, then made (or refused) as in a run. */
function planningClient(plan: Plan, requests: PlannedRequest[]): DbsiClient {
  const { client, config, rehearsal } = plan;
  const planning = Object.create(client) as DbsiClient;
  planning.send = (o: SendOptions, events = {}, signal?: AbortSignal) => {
    const r = client.resolve(o);
    // A declared deviation (paths): the plan shows the path the run will send to.
    const declared = o.operation !== 'raw' && !o.path ? config.paths?.[o.operation] : undefined;
    const moved = declared && { ...o, operation: 'raw' as const, method: r.method, base: r.baseKey };
    const at = moved ? client.resolve({ ...moved, path: fillPath(declared, o.pathParams) }) : r;
    const op =
      o.operation === 'raw'
        ? (o.label ?? 'a request outside the documented operations')
        : `${OPERATIONS[o.operation].number}. ` + `${OPERATIONS[o.operation].name}`;
    const own = r.baseKey === 'contactInfoBaseUrl' ? r.baseKey : undefined;
    requests.push({
      method: r.method,
      url: plan.targetRedactor.text(client.redactor.text(onTarget(plan, at.url, own))),
      operation: op,
      safetySwitch: r.needs,
      sent: !r.needs || rehearsal.allow[r.needs],
    });
    return client.send(o, events, signal);
  };
  return planning;
}

const switchText = (r: PlannedRequest) =>
  r.safetySwitch
    ? `allow.${r.safetySwitch}: ` + `${r.sent ? 'on' : 'off, refused before sending'}`
    : r.method === 'GET'
      ? 'no switch (a read)'
      : 'no switch';

/** The plan for the console and the file: one block per test, then the totals per switch. */
export function planText(tests: PlannedTest[], target: string, markdown: boolean): string {
  const all = tests.flatMap((t) => t.requests);
  const sent = all.filter((r) => r.sent);
  const bySwitch = new Map<string, number>();
  for (const r of sent) if (r.safetySwitch) bySwitch.set(r.safetySwitch, (bySwitch.get(r.safetySwitch) ?? 0) + 1);
  const refused = all.length - sent.length;
  const totals =
    `${plural(sent.length, 'request')} would be sent to ` +
    `${target}${
      bySwitch.size
        ? ` (behind a safety switch: ` + `${[...bySwitch].map(([s, n]) => `${n} under allow.${s}`).join(', ')})`
        : ', none behind a safety switch'
    }${refused ? `; ${plural(refused, 'request')} refused ` + `before sending (switch off)` : ''}. ` +
    `Nothing was sent to the target.`;
  const out: string[] = [];
  if (markdown) {
    out.push(`# DBSI conformance: dry-run plan for ${target}`, '');
    out.push(
      'Every request a run with this selection would send, in the order each test sends them (a request ' +
        'several tests are judged on is listed once, under the test that sends it), with the `allow.*` switch ' +
        'the harness requires for it. Secrets are redacted. The plan was made against the embedded reference ' +
        'target configured like this target (its switches, base URLs and test data): where a request depends ' +
        'on an earlier answer (an id the target returns, the records it lists) it follows what a conformant ' +
        'target answers, so a real run may differ there. Nothing was sent to the target.',
      '',
    );
    out.push(`**${totals}**`, '');
    for (const t of tests) {
      out.push(`## ${t.area} › ${t.operation} › ${t.title}`, '');
      if (t.judgedOn.length)
        out.push(`Judged (also) on the requests of ` + `${t.judgedOn.map((x) => `"${x}"`).join(', ')}.`, '');
      if (!t.requests.length) out.push(t.skipped ? `(${t.skipped})` : '(no request of its own)', '');
      else
        out.push(
          '| method | URL | switch |',
          '|---|---|---|',
          ...t.requests.map((r) => `| ${r.method} | \`${r.url.replace(/\|/g, '\\|')}\` ` + `| ${switchText(r)} |`),
          '',
        );
    }
  } else {
    for (const t of tests) {
      out.push(
        `${t.area} › ${t.operation} › ` +
          `${t.title}${
            t.judgedOn.length ? `  (judged on the requests of ` + `${t.judgedOn.map((x) => `"${x}"`).join(', ')})` : ''
          }`,
      );
      for (const r of t.requests) out.push(`  ${r.sent ? '' : '✗ '}${r.method} ${r.url}  [${switchText(r)}]`);
      if (t.skipped && !t.requests.length) out.push(`  (${t.skipped})`);
    }
    out.push('', totals);
  }
  return out.join('\n') + '\n';
}

/** Write the plan to the reports directory; returns the file's path. */
export function writePlan(reportsDir: string, tests: PlannedTest[], target: string): string {
  mkdirSync(reportsDir, { recursive: true });
  const file = join(reportsDir, DRY_RUN_FILE);
  writeFileSync(file, planText(tests, target, true));
  return file;
}

/** --dry-run from the command line: plan, print, write; 0, or 2 when the selection holds no test. */
export async function dryRun(
  o: { areas: Area[]; filter: CaseFilter; seed?: number; reports: string; explore?: ExploreSettings },
  configured: TargetConfig | undefined,
  io: { out(l: string): void; err(l: string): void },
): Promise<number> {
  const seed = o.seed ?? 1;
  const { tests, target } = await planRequests(configured, o.areas, o.filter, seed, o.explore);
  if (!tests.length) {
    io.err('dbsi-conformance: no test matches the selection: nothing to plan');
    return 2;
  }
  io.out(planText(tests, target.name, false).trimEnd());
  io.out(`Plan: ${writePlan(o.reports, tests, target.name)}`);
  return 0;
}
