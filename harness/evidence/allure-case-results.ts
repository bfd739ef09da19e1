import { createHash, randomUUID } from 'node:crypto';
import { requirement } from '../../requirements';
import { specLink, type RunSettings } from '../run-settings';
import type { CaseReport, Grade } from '../model';
import { OPERATIONS, type OperationKey } from '../operations';
import { AsyncResultsWriter } from './allure-writer';
import { renderExchange } from './exchange-text';
import { failureHeading, isFailureLike } from './failure-heading';

const SEVERITY: Record<Grade, string> = { MUST: 'critical', SHOULD: 'normal', INFO: 'trivial' };

/**
 * Allure results written straight from case reports, for a run that has no vitest runner (judging
 * recorded traffic): the same labels, links, statuses and attachments as the vitest registration
 * gives an active case, through the same results writer.
 */
export async function writeAllureResults(
  dir: string,
  cases: CaseReport[],
  o: { settings: RunSettings; environmentInfo: Record<string, string>; categories: unknown },
): Promise<void> {
  const writer = new AsyncResultsWriter(dir);
  writer.writeEnvironmentInfo(o.environmentInfo);
  writer.writeCategoriesDefinitions(o.categories);
  for (const [i, c] of cases.entries()) {
    // A capture can hold thousands of exchanges: the files are written a few hundred at a time (open files are
    // limited).
    if (i % 200 === 199) await writer.flush();
    const op = OPERATIONS[c.id.split('/')[1] as OperationKey];
    const labels = labelsOf(c, op, o.settings.strict);
    const attachments = attachmentsOf(writer, c);
    const start = Date.parse(c.parameters.startedAt ?? '') || Date.now();
    writer.writeResult({
      uuid: randomUUID(),
      historyId: createHash('md5').update(c.id).digest('hex'),
      testCaseId: createHash('md5').update(c.id).digest('hex'),
      fullName: `${c.area} > ${op.number}. ${op.name} > ${c.title}`,
      name: isFailureLike(c.outcome) ? failureHeading(c) : c.title,
      status: statusOf(c),
      statusDetails: c.reason ? { message: c.reason, trace: c.reason } : {},
      stage: 'finished',
      description: c.requirements
        .map((id) => {
          const r = requirement(id);
          return `**${id}** (${r.grade}, spec section ` + `*${r.section}*)\n\n> ${r.statement}`;
        })
        .join('\n\n'),
      labels,
      links: [...new Set([op.section, ...c.requirements.map((id) => requirement(id).section)])].map((section) => ({
        url: specLink(o.settings, section),
        name: `spec: ${section}`,
        type: 'link',
      })),
      parameters: Object.entries(c.parameters).map(([name, value]) => ({ name, value, excluded: true })),
      attachments,
      steps: [],
      start,
      stop: start + c.durationMs,
    } as { uuid: string });
  }
  await writer.flush();
}

function labelsOf(c: CaseReport, op: { number: number; name: string }, strict: boolean | undefined) {
  const grades = c.requirements.map((id) => requirement(id).grade);
  const grade: Grade = grades.includes('MUST') ? 'MUST' : grades.includes('SHOULD') ? 'SHOULD' : 'INFO';
  const failedIds = [
    ...new Set(
      c.checks.filter((k) => k.outcome === 'failed' && (k.grade === 'MUST' || strict)).map((k) => k.requirement),
    ),
  ];
  return [
    { name: 'epic', value: c.area },
    { name: 'feature', value: `${op.number}. ${op.name}` },
    { name: 'severity', value: SEVERITY[grade] },
    ...[grade, ...c.requirements].map((value) => ({ name: 'tag', value })),
    ...(c.outcome === 'failed' && failedIds.length ? failedIds : c.requirements).map((value) => ({
      name: 'story',
      value,
    })),
    ...(c.outcome === 'warning' ? [{ name: 'tag', value: 'warning' }] : []),
    ...(!strict && c.checks.some((k) => k.grade === 'INFO' && k.outcome === 'failed')
      ? [{ name: 'tag', value: 'observation' }]
      : []),
  ];
}

/** Each exchange of the case as a text attachment, written as it is named. */
function attachmentsOf(writer: AsyncResultsWriter, c: CaseReport) {
  return c.exchanges.map((ex) => {
    const source = `${randomUUID()}-attachment.txt`;
    writer.writeAttachment(source, Buffer.from(renderExchange(ex)));
    return {
      name: `${ex.request.method} ${ex.label ?? ex.operation} → ` + `${ex.response?.status ?? ex.error?.kind}`,
      source,
      type: 'text/plain',
    };
  });
}

function statusOf(c: CaseReport): string {
  return c.outcome === 'passed' || c.outcome === 'warning'
    ? 'passed'
    : c.outcome === 'failed'
      ? 'failed'
      : c.outcome === 'not-applicable' || c.outcome === 'not-allowed'
        ? 'skipped'
        : 'broken';
}
