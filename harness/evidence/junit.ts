import type { CaseReport } from '../model';
import { renderExchange } from './exchange-text';
import type { UnremovableRecord } from '../run/unremovable';

const esc = (s: string) =>
  s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const skippedOrWaived = (c: CaseReport) => ['not-applicable', 'not-allowed', 'waived'].includes(c.outcome);

/** JUnit XML: one testsuite per area, one testcase per case; already-redacted content only. */
/** One JUnit property, its value escaped. */
const property = (name: string, value: string) => `<property name="${name}" value="${esc(value)}"/>`;

/**
 * A selected area in which nothing was verified (exit 5 when the rest is conformant: allow.* off, not applicable):
 * one testcase in error per area whose tests are all skipped, so that a CI dashboard does not show such a run green
 * (issue 34). An area with a test in error (could not test) already shows red, and gets none.
 */
export interface UntestedArea {
  area: string;
  reason: string;
}

const untestedCase = (u: UntestedArea) => {
  const message =
    `selected but not tested: ${u.reason}; ` + 'nothing in this area was verified (exit 5 when the rest passed)';
  return [
    `    <testcase classname="${esc(`${u.area} › area`)}" name="${esc(`the ${u.area} area was tested`)}" time="0">`,
    `      <properties><property name="outcome" value="not-tested"/></properties>`,
    `      <error message="${esc(message)}" type="not-tested"/>`,
    '    </testcase>',
  ];
};

export function junitXml(
  cases: CaseReport[],
  runName: string,
  unremovable: readonly UnremovableRecord[] = [],
  notTested: readonly UntestedArea[] = [],
): string {
  const red = (c: CaseReport) => ['failed', 'could-not-test', 'error'].includes(c.outcome);
  const untested = notTested.filter((u) => !cases.some((c) => c.area === u.area && red(c)));
  const byArea = new Map<string, CaseReport[]>();
  // Waived deviations first in each suite: a reader meets them before the passes.
  const ordered = [...cases.filter((c) => c.outcome === 'waived'), ...cases.filter((c) => c.outcome !== 'waived')];
  for (const c of ordered) byArea.set(c.area, [...(byArea.get(c.area) ?? []), c]);
  for (const u of untested) if (!byArea.has(u.area)) byArea.set(u.area, []);
  const untestedIn = (area: string) => untested.filter((u) => u.area === area);
  const inError = (c: CaseReport) => c.outcome === 'could-not-test' || c.outcome === 'error';
  const out = ['<?xml version="1.0" encoding="UTF-8"?>'];
  const all = (p: (c: CaseReport) => boolean) => cases.filter(p).length;
  out.push(
    `<testsuites name="${esc(runName)}" tests="${cases.length + untested.length}" ` +
      `failures="${all((c) => c.outcome === 'failed')}" ` +
      `errors="${all((c) => c.outcome === 'could-not-test' || c.outcome === 'error') + untested.length}" ` +
      `skipped="${all(skippedOrWaived)}">`,
  );
  for (const [area, list] of byArea) {
    const time = list.reduce((s, c) => s + c.durationMs, 0) / 1000;
    out.push(
      `  <testsuite name="${esc(area)}" tests="${list.length + untestedIn(area).length}" ` +
        `failures="${list.filter((c) => c.outcome === 'failed').length}" ` +
        `errors="${list.filter(inError).length + untestedIn(area).length}" ` +
        `skipped="${list.filter(skippedOrWaived).length}" time="${time.toFixed(3)}">`,
    );
    for (const c of list) out.push(...testcase(c, unremovable));
    for (const u of untestedIn(area)) out.push(...untestedCase(u));
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

/** One case as a testcase: its properties, its outcome, its exchanges, and what it left on the target. */
function testcase(c: CaseReport, unremovable: readonly UnremovableRecord[]): string[] {
  const out: string[] = [];
  // No dot in the classname: Jenkins and others split it at dots into package and class.
  out.push(
    `    <testcase classname="${esc(`${c.area} › ${c.operation}`.replace(/\./g, ''))}" ` +
      `name="${esc(c.title)}" time="${(c.durationMs / 1000).toFixed(3)}">`,
  );
  const made = unremovable
    .filter((r) => r.test === c.title)
    .map((r) => `${r.kind} ${r.what}${r.id ? ` (id ${r.id})` : ''}`);
  out.push(caseProperties(c, made));
  const first = (c.reason ?? '').split('\n')[0]!;
  if (c.outcome === 'failed')
    out.push(`      <failure message="${esc(first)}" ` + `type="non-conformance">${esc(c.reason ?? '')}</failure>`);
  if (c.outcome === 'could-not-test' || c.outcome === 'error')
    out.push(`      <error message="${esc(first)}" ` + `type="${c.outcome}">${esc(c.reason ?? '')}</error>`);
  if (c.outcome === 'not-applicable' || c.outcome === 'not-allowed')
    out.push(`      <skipped message="${esc(first)}"/>`);
  // Not a pass, not a failure of the run: skipped, with a message that says WAIVED and the property above.
  if (c.outcome === 'waived') out.push(`      <skipped message="${esc(first)}" type="waived"/>`);
  const notes = [
    c.outcome === 'warning' ? `WARNING ${c.reason}` : '',
    ...c.checks
      .filter((k) => k.grade === 'INFO' && k.outcome === 'failed')
      .map((k) => `observation ${k.requirement}: ` + `${k.description}; received ${k.received}`),
  ].filter(Boolean);
  const exchanges = c.exchanges.map(renderExchange).join('\n\n');
  out.push(`      <system-out>${esc([...notes, exchanges].filter(Boolean).join('\n\n'))}</system-out>`);
  // What its clean-up could not put back: never silent, whatever the outcome.
  const errLines = [
    ...(c.leftovers ?? []).map(
      (l) =>
        `${l.unconfirmable ? 'SET TO THE CONFIGURED VALUES' : 'LEFT ON THE TARGET'}: ` +
        `${l.what}${l.now ? `; now ${l.now}` : ''}; restore ` +
        `${l.restore}; why: ${l.why}`,
    ),
    ...made.map((m) => `CREATED, CANNOT BE REMOVED THROUGH THE INTERFACE: ${m}`),
  ];
  if (errLines.length) out.push(`      <system-err>${esc(errLines.join('\n'))}</system-err>`);
  out.push('    </testcase>');
  return out;
}

/**
 * The requirements the case declares, its outcome, and one property per check it ran (requirement, grade, check,
 * outcome), then what it left or created.
 */
function caseProperties(c: CaseReport, made: string[]): string {
  const checks = c.checks
    .map((k) => `<property name="check" ` + `value="${esc(`${k.requirement} ${k.grade} ${k.check}: ${k.outcome}`)}"/>`)
    .join('');
  const waived = c.outcome === 'waived' ? `<property name="waived" value="${esc(c.reason ?? '')}"/>` : '';
  return (
    `      <properties>${waived}${c.requirements.map((r) => property('requirement', r)).join('')}<property ` +
    `name="outcome" value="${c.outcome}"/>${checks}${(c.leftovers ?? [])
      .map(
        (l) =>
          `<property name="${l.unconfirmable ? 'set-to-configured' : 'leftover'}" ` +
          `value="${esc(`${l.what}: ${l.unconfirmable ? l.now : `restore ${l.restore}`}`)}"/>`,
      )
      .join(
        '',
      )}${made.map((m) => `<property name="created-cannot-remove" ` + `value="${esc(m)}"/>`).join('')}</properties>`
  );
}
