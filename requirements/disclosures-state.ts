import type { Requirement } from './types';

const STATE_ID = 'Status of an institution disclosure (boolean institutionDisclosureStatus)';

/**
 * State rules of the disclosures area added after disclosures.ts reached its size: the institution counterpart of
 * STATE-UD-CHANGE-ONLY-NAMED.
 */
export const DISCLOSURES_STATE_REQUIREMENTS: Requirement[] = [
  {
    id: 'STATE-ID-CHANGE-ONLY-NAMED',
    section: STATE_ID,
    grade: 'MUST',
    operations: [1, 3],
    statement:
      '"The value true or false is supplied when the disclosure is created or changed. No other move is shown." ' +
      'A change (operation 3, "Path variable: institutionDisclosureId, unique identifier of the disclosure") moves ' +
      'the disclosure it names and no other: observed through operation 1, the disclosures that no write names ' +
      'are listed after the change with the same institutionDisclosureName and institutionDisclosureStatus as ' +
      'just before it (judged where both lists give them).',
  },
];
