import { faultsOf, type FaultDef } from './types';

const contact = faultsOf('contact-info');

/**
 * Hold-out faults of operation 10 that a run once blamed on its setup (docs/hold-out.md): the only read-back of a
 * phone number is an update naming it as oldPhoneNumber, so a target that loses the number looks like a
 * configuration whose number is not on record, unless the number was proven first. Their behaviour is in
 * reference-target/areas/holdout-others.ts.
 */
export const HOLDOUT_CONTACT_FAULTS: FaultDef[] = [
  contact(
    'ho-op10-email-alone-clears-phone',
    'An update that supplies only the e-mail address clears the phone number on record (replaces instead of ' +
      'updating). Caught by the e-mail-alone test, which reads the number back after its update (the number proven ' +
      "on record, then refused: the target's, docs/diagnosis.md, never the configuration's).",
    ['OP10-RULE1-UNSUPPLIED-KEPT'],
    // The run's log, judged whole, then shows "" (the cleared number, which the restore tries) accepted as old where
    // the log has another on record; a case that names the cleared number with all three objects fails rule 3's
    // update.
    { collateral: ['OP10-RULE2-OLD-PHONE-MATCH', 'OP10-RULE1-PHONE-STORED', 'OP10-RULE3-ALL-THREE'] },
  ),
  contact(
    'ho-op10-checks-first-customer',
    "oldPhoneNumber is compared with the first customer's number, whichever customer the path names. The proof " +
      'before the first write of every other customer is refused, before any write could have moved the number: to ' +
      'a run that is a configuration whose numbers are not on record (could not test, naming them), and rightly ' +
      'so (docs/diagnosis.md); the customer addressed by its login id (no proof) is refused as the target.',
    ['OP10-USERIDTYPE-LOGIN-ID'],
    {
      collateral: [
        'OP10-RULE1-UNSUPPLIED-KEPT',
        'OP10-RULE1-PHONE-STORED',
        'OP10-RULE1-COUNTRY-CODE-STORED',
        'OP10-RULE3-PHONE-STORED',
        'OP10-RULE2-OLD-PHONE-MATCH',
      ],
    },
  ),
];
