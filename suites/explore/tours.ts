import type fc from 'fast-check';
import { ById, Create, ListOther, Write, type Model } from './commands';
import type { Sequence } from './sequence';

type Cmd = fc.AsyncCommand<Model, Sequence>;

/**
 * Tours: short sequences that walk every transition of EXPLORABLE (transitions.ts) at least once, run before the random
 * sequences (fast-check's `examples`), so that a run of few sequences (4 on a configured target) still takes each
 * status from each state, both forms, a write that changes nothing, a record deleted and created again, and ids near
 * the real ones, the older of two records written by its own id, and the query parameters the spec names. Each
 * command still checks its precondition against the state the last list showed: where the target answers a write of
 * an absent record by creating it (the spec leaves it open), the tour goes on from there. A tour is at most
 * EXPLORE_MAX_COMMANDS long, so a failing one is already short; the random sequences that follow are shrunk by
 * fast-check.
 */
export function tours(slots: number): Cmd[][] {
  return [...(slots >= SEVERAL ? [absentTour()] : []), ...transitionTours(slots), queryTour(), ...severalTour(slots)];
}

/** The records a sequence works on where the target takes them (explore-user-disclosures.ts: listed and made up). */
export const SEVERAL = 6;

/**
 * First of all, on records no write of the run named yet (the made-up slots C–F): a change to each status and a
 * delete of a record the user never had, and a create with NOT_ACCEPTED (the state coverage's "absent" transitions;
 * later tours write records an earlier one deleted).
 */
function absentTour(): Cmd[] {
  return [
    new Write('change', 2, 'collection', 'ACCEPTED'),
    new Write('change', 3, 'collection', 'NOT_ACCEPTED'),
    new Write('delete', 4, 'collection', 'ACCEPTED'),
    new Create(5, 'NOT_ACCEPTED'),
    new Write('change', 5, 'collection', 'ACCEPTED'),
  ];
}

/**
 * Several records of the user at once: six created one after another with alternating statuses, each read back (a
 * list that loses the third, fifth or sixth record, or a status from the Nth on, shows here), the last two changed
 * by their own id, the third deleted and created again beside five (each status beside five or more records,
 * whether the user had none, one or two records before the run).
 */
function severalTour(slots: number): Cmd[][] {
  if (slots < SEVERAL) return [];
  const status = (k: number) => (k % 2 === 0 ? 'ACCEPTED' : 'NOT_ACCEPTED');
  return [
    [
      ...Array.from({ length: SEVERAL }, (_, k) => new Create(k, status(k))),
      new Write('change', 4, 'by-id', 'NOT_ACCEPTED'),
      new Write('change', 5, 'by-id', 'ACCEPTED'),
      new Write('delete', 2, 'by-id', 'ACCEPTED'),
      new Create(2, 'ACCEPTED'),
    ],
  ];
}

/** The tours of the transitions: every status from every state, both forms, near ids, the older of two records. */
function transitionTours(slots: number): Cmd[][] {
  const A = 0;
  const B = Math.min(1, slots - 1);
  const ACC = 'ACCEPTED' as const;
  const NOT = 'NOT_ACCEPTED' as const;
  const change = (k: number, status: typeof ACC | typeof NOT, form: 'collection' | 'by-id') =>
    new Write('change', k, form, status);
  const del = (k: number, form: 'collection' | 'by-id') => new Write('delete', k, form, ACC);
  return [
    // Each status from each status (collection form), the same status again, deleted twice, created again.
    [
      new Create(A, ACC),
      change(A, ACC, 'collection'),
      change(A, NOT, 'collection'),
      change(A, NOT, 'collection'),
      change(A, ACC, 'collection'),
      del(A, 'collection'),
      del(A, 'collection'),
      new Create(A, NOT),
      del(A, 'collection'),
    ],
    // The same in the /{institutionUserDisclosureId} form, from the other first status.
    [
      new Create(A, NOT),
      change(A, NOT, 'by-id'),
      change(A, ACC, 'by-id'),
      change(A, ACC, 'by-id'),
      change(A, NOT, 'by-id'),
      del(A, 'by-id'),
      new Create(A, ACC),
      del(A, 'by-id'),
    ],
    // Writes of a record that is not there: never created, then deleted.
    [
      change(A, ACC, 'collection'),
      change(A, NOT, 'collection'),
      del(A, 'collection'),
      new Create(A, ACC),
      del(A, 'collection'),
      change(A, NOT, 'collection'),
      change(A, ACC, 'collection'),
    ],
    nearIdTour(A, B),
    // Two records, a list of another consumer; the older one written by its own id while a newer one is listed (a
    // write that moves or removes the user's newest or first record instead of the one named shows here), the newer.
    [
      new Create(A, ACC),
      new Create(B, NOT),
      new ListOther(),
      change(A, NOT, 'by-id'),
      change(A, ACC, 'by-id'),
      del(A, 'by-id'),
      change(B, ACC, 'by-id'),
      del(B, 'by-id'),
    ],
  ];
}

/** Two records; changes and deletes by ids the target never issued, near the real ones. */
function nearIdTour(A: number, B: number): Cmd[] {
  const ACC = 'ACCEPTED' as const;
  const NOT = 'NOT_ACCEPTED' as const;
  return [
    new Create(A, ACC),
    new Create(B, NOT),
    new ById('change', A, 'suffix', NOT),
    new ById('delete', A, 'prefix', ACC),
    new ById('change', B, 'shorter', ACC),
    new ById('delete', B, 'never-issued', ACC),
    new ById('change', A, 'never-issued', ACC),
    new ById('delete', B, 'shorter', ACC),
    new ById('change', A, 'prefix', NOT),
    new ById('delete', B, 'suffix', ACC),
  ];
}

/**
 * The query parameters the spec names (InstitutionCustomerId; AccountType for a delete), sent where the configuration
 * supplies no value too: each status in both forms, then a delete in each form, each read back.
 */
function queryTour(): Cmd[] {
  const A = 0;
  const ACC = 'ACCEPTED' as const;
  const NOT = 'NOT_ACCEPTED' as const;
  return [
    new Create(A, ACC),
    new Write('change', A, 'collection', NOT, true),
    new Write('change', A, 'by-id', ACC, true),
    new Write('delete', A, 'by-id', ACC, true),
    new Create(A, NOT),
    new Write('change', A, 'collection', ACC, true),
    new Write('delete', A, 'collection', ACC, true),
  ];
}
