import { faultsOf, type FaultDef } from './types';

const f = faultsOf('disclosures');

/**
 * The second hold-out set's faults of operations 1–7 (docs/hold-out.md, "The second set"): written from the spec
 * alone, before reading this table or the first set; kept once caught, as regression tests. Their behaviour is in
 * reference-target/areas/holdout2-disclosures.ts.
 */
export const HOLDOUT2_DISCLOSURES_FAULTS: FaultDef[] = [
  f('ho2-op1-false-as-string', 'The list gives institutionDisclosureStatus false as the string "false".', [
    'RES-DISCLOSURE-FIELD-TYPES',
  ]),
  f('ho2-op2-false-stored-true', 'A create with institutionDisclosureStatus false stores true.', ['STATE-ID-CREATE']),
  f('ho2-op3-false-ignored', 'A change to institutionDisclosureStatus false keeps the status it had.', [
    'STATE-ID-CHANGE',
  ]),
  f('ho2-op3-second-change-ignored', 'Only the first change of a disclosure is stored; later ones are answered.', [
    'STATE-ID-CHANGE',
  ]),
  f(
    'ho2-op3-changes-prefix-siblings',
    'A change also renames (and sets the status of) every disclosure whose id begins with the path id.',
    ['STATE-ID-CHANGE-ONLY-NAMED'],
  ),
  f(
    'ho2-op3-answers-old-name',
    'A change answers the institutionDisclosureName the disclosure had before it.',
    ['OP3-RESPONSE-REFLECTS-REQUEST'],
    { collateral: ['STATE-ID-CHANGE'] },
  ),
  f('ho2-op5-not-accepted-as-accepted', 'A create with status NOT_ACCEPTED stores ACCEPTED.', ['STATE-UD-CREATE']),
  f('ho2-op5-recreate-after-delete-lost', 'A create of a record deleted before is answered 204 and not stored.', [
    'STATE-UD-CREATE',
  ]),
  f('ho2-op5-201-after-first', "Every create after the service's first answers 201 with a body.", ['OP5-STATUS-204']),
  f('ho2-op6-accepted-ignored', 'A change from NOT_ACCEPTED to ACCEPTED is answered 204 and not stored.', [
    'STATE-UD-CHANGE',
  ]),
  f(
    'ho2-op6-path-changes-newest',
    "A change by path id moves the user's newest record instead of the one named.",
    ['STATE-UD-CHANGE'],
    {
      collateral: ['STATE-UD-CHANGE-ONLY-NAMED'],
    },
  ),
  f('ho2-op6-bare-form-404-with-two', 'A change of the collection form answers 404 when the user has 2 records.', [
    'OP6-REQUEST',
  ]),
  f('ho2-op7-200-for-not-accepted', 'A delete of a NOT_ACCEPTED record answers 200 with a body.', ['OP7-STATUS-204']),
  f(
    'op3-refuses-change-of-initial',
    'Variant: a change of a disclosure on record when the target started is refused (403); only what clients ' +
      'created may be changed. "Errors of the disclosures operations: not shown."',
    [],
    { variant: true, strict: true },
  ),
];
