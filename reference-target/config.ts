import { resolveConfig, type TargetConfig } from '../harness/config';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from './fixtures';
import type { ReferenceTarget } from './server';

interface Overrides {
  http?: Record<string, unknown>;
  allow?: Record<string, boolean>;
  testData?: typeof REFERENCE_TEST_DATA;
}

/**
 * The configuration file of the reference target, without its credentials (they come from the environment): what
 * `npm run reference` prints, ready to paste, and what the embedded run resolves with the credentials added.
 */
export function referenceConfigFile(target: Pick<ReferenceTarget, 'urls'>, overrides: Overrides = {}) {
  return {
    name: 'embedded reference target',
    ...target.urls,
    callingAppId: 'dbsi-conformance',
    testData: overrides.testData ?? REFERENCE_TEST_DATA,
    allow: {
      moneyMovement: true,
      contactUpdate: true,
      tokenRevocation: true,
      institutionDisclosureWrites: true,
      ...overrides.allow,
    },
    // The suite's own target never hangs: its time-out only stops a hang, with room for a starved machine (at 5 s, a
    // self-test beside 12 CPU hogs ran the target and the client in one thread and took answers for lost).
    http: { timeoutMs: 30_000, concurrency: 64, ...overrides.http },
  };
}

/** The suite's default configuration: the embedded reference target, everything allowed, its contact data known. */
export function referenceConfig(target: Pick<ReferenceTarget, 'urls'>, overrides: Overrides = {}): TargetConfig {
  const file = referenceConfigFile(target, overrides);
  // The suite's own target: what it holds is known (its fixtures), the e-mail and postal address too.
  return { ...resolveConfig({ ...file, credentials: { ...REFERENCE_CREDENTIALS } }, {}), ownTarget: true };
}
