import { faultsOf, type FaultDef } from './types';

const f = faultsOf('disclosures');

/**
 * The third hold-out set's faults of operations 1–7 (docs/hold-out.md, "The third set (session 39)"): written from
 * the spec alone, before reading the suite or this table; kept once caught, as regression tests. Their behaviour is
 * in reference-target/areas/holdout3-institution.ts and holdout3-user.ts.
 */
export const HOLDOUT3_DISCLOSURES_FAULTS: FaultDef[] = [
  f(
    'ho3-op2-status-of-previous-create',
    'A create stores the institutionDisclosureStatus the previous create carried (a variable never reset).',
    ['STATE-ID-CREATE'],
    { collateral: ['STATE-ID-CHANGE', 'STATE-ID-CHANGE-ONLY-NAMED'] },
  ),
  f(
    'ho3-op3-changes-latest-disclosure',
    'A change applies to the disclosure created last, whichever the path names; the answer echoes the path id.',
    ['STATE-ID-CHANGE'],
    { collateral: ['STATE-ID-CHANGE-ONLY-NAMED', 'STATE-ID-CREATE'] },
  ),
  f(
    'ho3-op1-second-list-stringifies-status',
    'From the second list after its write on, a written disclosure shows institutionDisclosureStatus as a string.',
    ['RES-DISCLOSURE-FIELD-TYPES'],
  ),
  f('ho3-op2-empty-name-null', 'An empty institutionDisclosureName is stored and answered as null.', [
    'RES-DISCLOSURE-FIELD-TYPES',
  ]),
  f(
    'ho3-op3-rename-changes-id',
    'A change of name re-derives the id from the name: the disclosure is listed under a new id.',
    ['OP3-REQUEST'],
    { collateral: ['STATE-ID-CHANGE', 'STATE-ID-CHANGE-ONLY-NAMED', 'OP3-RESPONSE-REFLECTS-REQUEST'] },
  ),
  f(
    'ho3-op1-changed-without-name',
    'Once a disclosure was changed, the list gives it without institutionDisclosureName.',
    ['RES-DISCLOSURE-OPTIONAL-MEMBERS'],
    { collateral: ['STATE-ID-CHANGE'] },
  ),
  f('ho3-op6-third-change-lost', "A record's third change is answered 204 and not stored.", ['STATE-UD-CHANGE']),
  f(
    'ho3-op4-other-consumer-cached',
    "A list for any consumer other than the first one listed answers the first consumer's records (a warning, as " +
      'op4-answers-for-token-user: a failure only under --strict).',
    ['OP4-OTHER-CONSUMER'],
    { strict: true },
  ),
  f(
    'ho3-op4-stale-second-read',
    'The first list after a write of a record shows it right; from the second on, as it was before that write.',
    ['STATE-UD-CREATE'],
    {
      // A record a stale list shows (or hides) is then written by what that list said: the writes' own rules fail too.
      collateral: [
        'STATE-UD-CHANGE',
        'STATE-UD-DELETE',
        'STATE-UD-CHANGE-ONLY-NAMED',
        'STATE-UD-DELETE-ONLY-NAMED',
        'OP6-REQUEST',
        'OP6-REQUEST-BY-ID',
        'OP7-REQUEST',
        'OP7-REQUEST-BY-ID',
      ],
    },
  ),
  f('ho3-op6-collection-form-noop', 'A change of the collection form (no path id) answers 204 and changes nothing.', [
    'STATE-UD-CHANGE',
  ]),
  f('ho3-op7-collection-form-noop', 'A delete of the collection form (no path id) answers 204 and keeps the record.', [
    'STATE-UD-DELETE',
  ]),
  f(
    'op3-refuses-empty-name',
    'Variant: a create or change with an empty institutionDisclosureName is refused (400). "Errors of the ' +
      'disclosures operations: not shown."',
    [],
    { variant: true, strict: true },
  ),
];
