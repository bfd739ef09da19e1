import type { Faker } from '@faker-js/faker';
import type { TargetConfig } from '../harness/config';

export type Credentials = 'valid' | 'none' | 'invalid';

/**
 * "Disclosures: headers sent with every operation": Authorization (Bearer), TransactionId (a UUID
 * string, unique per request) and callingAppId, under exactly those names.
 */
export function commonHeaders(f: Faker, cfg: TargetConfig, credentials: Credentials = 'valid'): Record<string, string> {
  const h: Record<string, string> = { TransactionId: f.string.uuid(), callingAppId: cfg.callingAppId, Accept: 'application/json' };
  if (credentials === 'valid') h.Authorization = `Bearer ${cfg.credentials.bearerToken}`;
  if (credentials === 'invalid') h.Authorization = `Bearer invalid-${f.string.alphanumeric(24)}`;
  return h;
}
