import { faultsOf, type FaultDef } from './types';

const auth = faultsOf('authentication');
const money = faultsOf('money-movement');
const contact = faultsOf('contact-info');

/**
 * The fifth hold-out set's faults of operations 8–10 (docs/hold-out.md, "The fifth set (session 41)"): written
 * from the spec alone, aimed at repeats and at the state a call leaves behind. Kept once caught. Their behaviour is
 * in reference-target/areas/holdout5-others.ts.
 */
export const HOLDOUT5_OTHER_FAULTS: FaultDef[] = [
  auth(
    'ho5-op8-repeat-revoke-numeric-expiry',
    'A second revocation of the same refresh token answers 200 with expires_in a number.',
    ['OP8-RESPONSE-TOKEN-RECORD'],
  ),
  auth(
    'ho5-op8-cached-key-ignores-secret',
    'After one accepted revocation, a Basic header with the same shared key and a wrong secret is accepted.',
    ['OP8-AUTH-401'],
  ),
  money('ho5-op9-second-transfer-fee-string', 'From the second transfer on, fee.amount is answered as a string.', [
    'OP9-RESPONSE-TRANSFER',
  ]),
  money(
    'ho5-op9-unauthenticated-after-success',
    'After an accepted transfer, a request without Authorization is served with the last accepted token.',
    ['OP9-AUTH-401'],
  ),
  contact(
    'ho5-op10-phone-keyed-by-number',
    "The old-number check looks among every customer's numbers: another customer's number on record is accepted.",
    ['OP10-RULE2-OLD-PHONE-MATCH'],
  ),
  contact(
    'ho5-op10-email-only-resets-phone',
    'An update of the e-mail alone puts the phone number on record back to the first one.',
    ['OP10-RULE1-UNSUPPLIED-KEPT'],
    { collateral: ['OP10-RULE1-PHONE-STORED', 'OP10-RULE2-OLD-PHONE-MATCH'] },
  ),
  contact(
    'ho5-op10-all-three-phone-skipped-second',
    "On a customer's second update with the three objects together, the phone number is not updated.",
    ['OP10-RULE3-PHONE-STORED'],
    { collateral: ['OP10-RULE1-UNSUPPLIED-KEPT', 'OP10-RULE1-PHONE-STORED', 'OP10-RULE2-OLD-PHONE-MATCH'] },
  ),
];
