/**
 * Where an active run and the capture of the same run legitimately differ in a requirement's verdict (wpt style:
 * the expectations live outside the test, selftest/active-capture-parity.test.ts). Keyed by the fault ('' for
 * the faultless target), then by requirement, with the reason. An entry where the active run fails says what it
 * knew that the capture does not show; the test holds it to the rules' own account of the failure
 * (CheckResult.capture, harness/rules/capture-view.ts): no check of it may be one a capture reaches.
 */
export const ACTIVE_CAPTURE_DIFFERENCES: Record<string, Record<string, string>> = {
  'op10-unsupplied-phone-cleared': {
    'OP10-RULE1-UNSUPPLIED-KEPT':
      'fails in the active run only: the update naming the number kept is refused, and only the run knows the ' +
      "refusal was of the operator's credentials as configured (a capture's refusal may be about them); the " +
      'stored-number case also states it from the configured number on record, which a capture does not know',
  },
};
