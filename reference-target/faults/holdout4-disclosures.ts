import { faultsOf, type FaultDef } from './types';

const f = faultsOf('disclosures');

/**
 * The fourth hold-out set's faults of operations 1–7 (docs/hold-out.md, "The fourth set (session 40)"): written from
 * the spec alone, before reading the suite or this table, aimed at every value a field shows, the query parameters,
 * full lifecycles, the Nth item and combinations; kept once caught, as regression tests. Their behaviour is in
 * reference-target/areas/holdout4-institution.ts and holdout4-user.ts.
 */
export const HOLDOUT4_DISCLOSURES_FAULTS: FaultDef[] = [
  f('ho4-op2-false-stored-true', 'A create with institutionDisclosureStatus false stores true.', ['STATE-ID-CREATE'], {
    collateral: ['STATE-ID-CHANGE', 'STATE-ID-CHANGE-ONLY-NAMED'],
  }),
  f(
    'ho4-op3-change-back-to-true-ignored',
    'Once a change set a disclosure to false, a change back to true is answered and not stored.',
    ['STATE-ID-CHANGE'],
  ),
  f('ho4-op1-false-status-as-string', 'The list gives a false institutionDisclosureStatus as the string "false".', [
    'RES-DISCLOSURE-FIELD-TYPES',
  ]),
  f('ho4-op1-sixth-element-id-number', 'From the sixth element of the list on, institutionDisclosureId is a number.', [
    'RES-DISCLOSURE-FIELD-TYPES',
  ]),
  f('ho4-op2-long-name-null', 'A create whose name is longer than 60 characters answers the name as null.', [
    'RES-DISCLOSURE-FIELD-TYPES',
  ]),
  f('ho4-op2-false-drops-data-type', 'A create with status false answers without institutionDisclosureDataType.', [
    'OP2-RESPONSE',
  ]),
  f('ho4-op3-false-data-null', 'A change to status false answers institutionDisclosureData as null.', [
    'RES-DISCLOSURE-FIELD-TYPES',
  ]),
  f('ho4-op5-not-accepted-stored-accepted', 'A create carrying NOT_ACCEPTED stores ACCEPTED.', ['STATE-UD-CREATE']),
  f(
    'ho4-op6-change-back-ignored',
    'Once a change moved a record away from ACCEPTED, a change back to ACCEPTED is answered 204 and not stored.',
    ['STATE-UD-CHANGE'],
  ),
  f(
    'ho4-op5-recreate-after-delete-not-listed',
    'After a delete, a create of the same disclosure and account for the user answers 204 and is never listed.',
    ['STATE-UD-CREATE'],
  ),
  f(
    'ho4-op6-customer-id-query-ignored',
    'A change that carries the InstitutionCustomerId query parameter answers 204 and changes nothing.',
    ['STATE-UD-CHANGE'],
  ),
  f(
    'ho4-op7-account-type-query-ignored',
    'A delete that carries the AccountType query parameter answers 204 and keeps the record.',
    ['STATE-UD-DELETE'],
  ),
  f(
    'ho4-op4-mixed-statuses-all-accepted',
    'A list holding ACCEPTED and NOT_ACCEPTED records gives every record as ACCEPTED.',
    ['STATE-UD-CHANGE'],
    { collateral: ['STATE-UD-CREATE'] },
  ),
  f(
    'ho4-op5-second-disclosure-replaces-first',
    "A create for another disclosure removes the user's records of the same account.",
    ['STATE-UD-CREATE'],
  ),
  f(
    'disc-refuses-unlisted-query-values',
    'Variant: a change or delete carrying an InstitutionCustomerId or AccountType the target does not know is ' +
      'refused (400). InstitutionCustomerId is "mandatory for business banking requests", AccountType is "a valid ' +
      'account type of the platform"; "Errors of the disclosures operations: not shown."',
    [],
    { variant: true, strict: true },
  ),
  f(
    'op2-op3-refuses-long-name',
    'Variant: a create or change whose institutionDisclosureName is longer than 64 characters is refused (400). ' +
      '"Rate limits, size limits, time-outs and token lifetimes: not shown."',
    [],
    { variant: true, strict: true },
  ),
];
