import { describe, expect, test } from 'vitest';
import type { CaseReport } from '../harness/model';
import { expectTargetAsFound, falseFailures, runFlaky, type Plan } from './_flaky-proxy';

/**
 * The cases of operations 5–7 share one life of two records (suites/disclosures/_record-lifecycle.ts).
 * A step whose write goes unanswered costs the verdicts of that step only: its cases could not test,
 * the life goes on from what a new list shows (the write may have landed), the later steps get their
 * verdicts, and the clean-up leaves the target as found.
 */

/** The life's first change: the first PUT on the collection path of user disclosures (the refused ones come after the
 * life's last step). */
function firstCollectionChange(applied: boolean): Plan {
  let seen = false;
  return (r) => {
    if (seen || r.method !== 'PUT' || !/\/institution-user-disclosures(\?|$)/.test(r.path)) return { kind: 'forward' };
    seen = true;
    return { kind: '503', applied };
  };
}

const byRule = (cases: CaseReport[], rule: string, form: string) =>
  cases.filter((c) => c.requirements.includes(rule) && c.title.includes(form));

describe.concurrent("a write of the records' life answered 503", () => {
  test.each([
    ['not applied', false],
    ['applied before the 503', true],
  ] as const)(
    '%s: the cases of that step could not test; the later steps get ' + 'their verdicts; the target is left as found',
    async (_name, applied) => {
      const r = await runFlaky({
        plan: firstCollectionChange(applied),
        areas: ['disclosures'],
        http: { timeoutMs: 5_000 },
      });
      expect(falseFailures(r.cases)).toEqual([]);
      expect(r.leftovers).toEqual([]);
      const step = ['OP6-STATUS-204', 'STATE-UD-CHANGE', 'STATE-UD-CHANGE-ONLY-NAMED'].flatMap((rule) =>
        byRule(r.cases, rule, '(collection form)'),
      );
      expect(step).toHaveLength(3);
      for (const c of step) expect(`${c.outcome}: ${c.reason}`, c.id).toMatch(/^could-not-test: could not test: .*503/);
      const later = [
        ...['OP6-STATUS-204', 'STATE-UD-CHANGE', 'STATE-UD-CHANGE-ONLY-NAMED'].flatMap((rule) =>
          byRule(r.cases, rule, '/{institutionUserDisclosureId} form'),
        ),
        ...['OP7-STATUS-204', 'STATE-UD-DELETE', 'STATE-UD-DELETE-ONLY-NAMED'].flatMap((rule) =>
          byRule(r.cases, rule, 'form'),
        ),
      ];
      expect(later).toHaveLength(9);
      for (const c of later) expect(`${c.outcome}: ${c.reason ?? ''}`, c.id).toBe('passed: ');
      expectTargetAsFound(r);
    },
  );
});
