import { resolveConfig, type TargetConfig } from '../harness/config';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from './fixtures';
import type { ReferenceTarget } from './server';

/** The suite's default configuration: the embedded reference target, everything allowed, its contact data known. */
export function referenceConfig(
  target: Pick<ReferenceTarget, 'urls'>,
  overrides: {
    http?: Record<string, unknown>;
    allow?: Record<string, boolean>;
    testData?: typeof REFERENCE_TEST_DATA;
  } = {},
): TargetConfig {
  // The suite's own target: what it holds is known (its fixtures), the e-mail and postal address too.
  const cfg = resolveConfig(
    {
      name: 'embedded reference target',
      ...target.urls,
      callingAppId: 'dbsi-conformance',
      credentials: { ...REFERENCE_CREDENTIALS },
      testData: overrides.testData ?? REFERENCE_TEST_DATA,
      allow: {
        moneyMovement: true,
        contactUpdate: true,
        tokenRevocation: true,
        institutionDisclosureWrites: true,
        ...overrides.allow,
      },
      http: { timeoutMs: 5_000, concurrency: 64, ...overrides.http },
    },
    {},
  );
  return { ...cfg, ownTarget: true };
}
