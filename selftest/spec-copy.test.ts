import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ROOT } from './_cli';

const shared = `${ROOT}../shared/spec/digital-banking-service-interface.md`;

describe('the spec copy', () => {
  // The suite ships a copy of the spec so that links, hashes and readers have it; it must not drift
  // from the shared original where that is present (CI and developer checkouts).
  test.skipIf(!existsSync(shared))('is identical to the shared spec', () => {
    expect(readFileSync(`${ROOT}spec/digital-banking-service-interface.md`, 'utf8')).toBe(readFileSync(shared, 'utf8'));
  });
});
