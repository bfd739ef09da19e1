import { faultsOf, type FaultDef } from './types';

const f = faultsOf('disclosures');

/** Faults of operations 1–3 that only the explorer's sequences reach (suites/explore/explore-institution.ts). */
export const INSTITUTION_EXPLORED_FAULTS: FaultDef[] = [
  f(
    'op3-third-change-not-stored',
    'Change an institution disclosure stores the first two changes of a disclosure; from the third change of the ' +
      'same disclosure on, it answers with the new values but stores nothing: the list keeps the second change.',
    ['STATE-ID-CHANGE'],
  ),
  f(
    'op3-upserts-unknown-id',
    'Variant, not a fault: a change of an id the target never issued creates the disclosure under that id (PUT as ' +
      'an upsert) and answers 200; what a change of an unknown id does is not shown. The explorer sends such ids.',
    [],
    { variant: true },
  ),
];
