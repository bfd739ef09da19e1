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
];
