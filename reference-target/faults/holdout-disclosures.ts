import { faultsOf, type FaultDef } from './types';

const f = faultsOf('disclosures');

/**
 * Hold-out faults of operations 1–7 (docs/hold-out.md): written from the spec alone, before reading this table, to
 * measure what the suite catches of faults it has never seen; kept once caught, as regression tests. Their behaviour
 * is in reference-target/areas/holdout-disclosures.ts.
 */
export const HOLDOUT_DISCLOSURES_FAULTS: FaultDef[] = [
  f(
    'ho-op1-status-string-for-created',
    'The list gives the disclosures created through the interface institutionDisclosureStatus as a string ("true"); ' +
      'the disclosures on record at the start keep the boolean. Only a list read after a create shows it.',
    ['RES-DISCLOSURE-FIELD-TYPES'],
  ),
  f(
    'ho-op1-data-object-for-created',
    'The list gives the disclosures created through the interface institutionDisclosureData as an object {url}.',
    ['RES-DISCLOSURE-FIELD-TYPES'],
  ),
  f(
    'ho-op2-name-cut-in-store',
    'A create answers the name sent but stores it cut to 16 characters: the list shows the name cut.',
    ['STATE-ID-CREATE'],
  ),
  f(
    'ho-op3-false-not-stored',
    'A change from status true to false is answered, and the name stored, but the status stays true.',
    ['STATE-ID-CHANGE'],
  ),
  f(
    'ho-op3-answers-first-id',
    'A change answers the institutionDisclosureId of the first disclosure on record, not the one of its path.',
    ['STATE-ID-CHANGE'],
  ),
  f(
    'ho-op3-by-id-reads-a-prefix',
    'A change by an id no disclosure has changes the disclosure whose id the path id begins with (the longest), ' +
      'and answers the path id: another disclosure moves (the institution counterpart of op7-by-id-reads-a-prefix).',
    ['STATE-ID-CHANGE-ONLY-NAMED'],
  ),
  f(
    'ho-op1-omits-optional-after-change',
    'Variant: once a change was served, the list gives the disclosures on record at the start without ' +
      'institutionDisclosureData, institutionDisclosureDataType and institutionDisclosureStatus: "A list response ' +
      'may contain elements that omit institutionDisclosureData, institutionDisclosureDataType and ' +
      'institutionDisclosureStatus." A status the second list does not give is no move (STATE-ID-CHANGE-ONLY-NAMED).',
    [],
    { variant: true, strict: true },
  ),
  f(
    'ho-op4-not-accepted-without-institution-id',
    'The list leaves institutionId out of the records whose status is NOT_ACCEPTED.',
    ['OP4-RESPONSE-MEMBERS'],
  ),
  f(
    'ho-op4-status-boolean-after-change',
    'A record whose status a change moved is listed with institutionUserDisclosureStatus as a boolean.',
    ['RES-USERDISC-FIELD-TYPES'],
    { collateral: ['STATE-UD-CHANGE'] },
  ),
  f('ho-op5-not-accepted-stored-accepted', 'A create that carries NOT_ACCEPTED stores ACCEPTED.', ['STATE-UD-CREATE']),
  f(
    'ho-op5-201-when-user-has-records',
    'A create for a user who already has records answers 201 with a body instead of 204.',
    ['OP5-STATUS-204'],
  ),
  f(
    'ho-op6-later-changes-lost',
    "After a record's status moved once, later changes of it are answered 204 and not stored.",
    ['STATE-UD-CHANGE'],
  ),
  f(
    'ho-op6-path-form-changes-first-record',
    "A change by /{institutionUserDisclosureId} moves the user's first record, not the one of the path.",
    ['STATE-UD-CHANGE-ONLY-NAMED'],
    { collateral: ['STATE-UD-CHANGE'] },
  ),
  f(
    'ho-op6-200-when-unchanged',
    'A change that carries the status the record already has answers 200 with a body instead of 204.',
    ['OP6-STATUS-204'],
  ),
  f('ho-op7-path-delete-keeps-record', 'A delete by /{institutionUserDisclosureId} answers 204 and keeps the record.', [
    'STATE-UD-DELETE',
  ]),
  f(
    'ho-op7-delete-removes-all-of-user',
    'A delete removes every record of the user, not only the one it names.',
    ['STATE-UD-DELETE-ONLY-NAMED'],
    { collateral: ['STATE-UD-DELETE', 'STATE-UD-CHANGE', 'STATE-UD-CHANGE-ONLY-NAMED'] },
  ),
];
