import * as allure from 'allure-js-commons';
import { describe, inject, test as base } from 'vitest';
import { requirement } from '../requirements';
import {
  CaseContext,
  caseId,
  runCase,
  specLink,
  type EvidenceSink,
  type Feature,
  type RunSettings,
} from '../harness/case';
import type { Area, CaseReport, Exchange, Grade } from '../harness/model';
import { OPERATIONS } from '../harness/operations';
import { selects, type CaseFilter } from '../harness/run/filter';
import { workerClient } from '../harness/run/worker';
import { renderExchange } from '../harness/evidence/exchange-text';
import { caseError } from '../harness/evidence/report';
import { CASE_LABEL } from '../harness/evidence/allure-labels';
import { INTERRUPTED, runCancelledSignal, runCancelledWhy } from '../harness/run/cancel-channel';

declare module 'vitest' {
  export interface ProvidedContext {
    dbsi: { settings: RunSettings; filter?: CaseFilter; parallelAreas: number; areas: Area[]; runKey: string };
  }
  interface TaskMeta {
    dbsi?: CaseReport;
  }
}

const SEVERITY: Record<Grade, string> = { MUST: 'critical', SHOULD: 'normal', INFO: 'trivial' };

/** Allure as the evidence sink: steps, redacted exchanges as attachments, parameters. */
const allureSink: EvidenceSink = {
  step: (name, body) => allure.step(name, () => body()) as Promise<never>,
  exchange: async (ex: Exchange) => {
    await allure.attachment(
      `${ex.request.method} ${ex.label ?? ex.operation} → ` +
        `${ex.response?.status ?? ex.error?.kind}${
          ex.retries.length ? ` (after ${ex.retries.length} ` + `retr${ex.retries.length === 1 ? 'y' : 'ies'})` : ''
        }`,
      renderExchange(ex),
      'text/plain',
    );
  },
  parameter: async (name, value) => {
    // Excluded from Allure's history id: generated values change with the seed, and a test must
    // keep its history across nightly runs.
    await allure.parameter(name, value, { excluded: true });
  },
};

/** Keep what crosses to the main process small: bodies are cut in the task meta (Allure has them whole). */
function forMeta(r: CaseReport): CaseReport {
  const cut = (s: string | undefined) => (s && s.length > 4096 ? `${s.slice(0, 4096)}… (cut)` : s);
  return {
    ...r,
    exchanges: r.exchanges.map((e) => ({
      ...e,
      request: { ...e.request, body: cut(e.request.body) },
      response: e.response && { ...e.response, body: cut(e.response.body) ?? '' },
    })),
  };
}

const test = base.extend<{ run: { settings: RunSettings; parallelAreas: number } }>({
  // eslint-disable-next-line no-empty-pattern
  run: async ({}, use) => {
    const { settings, parallelAreas } = inject('dbsi');
    await use({ settings, parallelAreas });
  },
});

/** Register every selected case of the selected areas as vitest tests, one describe block per area. */
export function registerAreas(byArea: Record<Area, Feature[]>): void {
  const { areas } = inject('dbsi');
  for (const area of areas) describe.concurrent(area, () => registerArea(byArea[area]));
}

/** Register every selected case of an area's features as a vitest test; independent cases run concurrently. */
function registerArea(features: Feature[]): void {
  const { filter, runKey } = inject('dbsi');
  for (const f of features) {
    const op = OPERATIONS[f.operation];
    const cases = f.cases.filter((c) => selects(filter, f, c));
    if (cases.length === 0) continue;
    describe.concurrent(`${op.number}. ${op.name}`, () => {
      for (const def of cases) {
        test(def.title, async ({ run, task, skip, signal }) => {
          const { settings, parallelAreas } = run;
          const grades = def.requirements.map((id) => requirement(id).grade);
          const grade: Grade = grades.includes('MUST') ? 'MUST' : grades.includes('SHOULD') ? 'SHOULD' : 'INFO';
          await allure.epic(f.area);
          await allure.feature(`${op.number}. ${op.name}`);
          await allure.severity(SEVERITY[grade]);
          await allure.tags(grade, ...def.requirements);
          await allure.label(CASE_LABEL, caseId(f, def));
          for (const section of new Set([op.section, ...def.requirements.map((id) => requirement(id).section)])) {
            await allure.link(specLink(settings, section), `spec: ${section}`);
          }
          await allure.description(
            def.requirements
              .map((id) => {
                const r = requirement(id);
                return `**${id}** (${r.grade}, spec section ` + `*${r.section}*)\n\n> ${r.statement}`;
              })
              .join('\n\n'),
          );
          const ctx = new CaseContext(
            settings,
            workerClient(settings, parallelAreas),
            f,
            def,
            allureSink,
            AbortSignal.any([signal, runCancelledSignal(runKey)]),
          );
          const report = await runCase(ctx);
          // A case stopped by --bail (its requests aborted) says so, rather than that the run was interrupted.
          const why = runCancelledWhy(runKey);
          if (why !== undefined && why !== INTERRUPTED && report.outcome === 'could-not-test') {
            report.reason = report.reason?.replace(`could not test: ${INTERRUPTED}`, `could not test: ${why}`);
          }
          // The report's tree groups tests by requirement (story), and a test with several stories is
          // listed (and counted in the tree's badges) once per story: each test gets one, the
          // requirement whose check failed, else its first. Every requirement it checks is a tag.
          const failedId = report.checks.find(
            (k) => k.outcome === 'failed' && (k.grade === 'MUST' || settings.strict),
          )?.requirement;
          await allure.story(report.outcome === 'failed' && failedId ? failedId : def.requirements[0]!);
          task.meta.dbsi = forMeta(report);
          if (report.outcome === 'warning') await allure.label('tag', 'warning');
          if (!settings.strict && report.checks.some((k) => k.grade === 'INFO' && k.outcome === 'failed'))
            await allure.label('tag', 'observation');
          switch (report.outcome) {
            case 'passed':
            case 'warning':
              return;
            case 'not-applicable':
            case 'not-allowed':
              skip(report.reason);
              return;
            default:
              throw caseError(report);
          }
        });
      }
    });
  }
}
