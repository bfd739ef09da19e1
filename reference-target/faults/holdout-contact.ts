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
      'updating).',
    [],
  ),
];
