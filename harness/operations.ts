import { AUTHENTICATION_OPERATIONS } from './operations-authentication';
import { CONTACT_INFO_OPERATIONS } from './operations-contact-info';
import { DISCLOSURES_OPERATIONS } from './operations-disclosures';
import { MONEY_MOVEMENT_OPERATIONS } from './operations-money-movement';
import type { OperationDef } from './operations-types';
import type { SafetySwitch } from './model';

export type { BaseUrlKey, OperationBaseKey, OperationDef } from './operations-types';

/*
 * The operations table: every operation the suite knows, one entry each, written in its area's file
 * (harness/operations-<area>.ts) with what the spec documents about it (`documented`). Everything else that
 * lists operations is derived from it: the keys `paths` of the configuration accepts (harness/config-validator.ts),
 * the OpenAPI document, the contract coverage, the recorded traffic's mapping.
 */

const TABLE = {
  ...DISCLOSURES_OPERATIONS,
  ...AUTHENTICATION_OPERATIONS,
  ...MONEY_MOVEMENT_OPERATIONS,
  ...CONTACT_INFO_OPERATIONS,
};

export type OperationKey = keyof typeof TABLE;

export const OPERATIONS: Readonly<Record<OperationKey, OperationDef>> = TABLE;

export function operation(key: OperationKey): OperationDef {
  return OPERATIONS[key];
}

/**
 * Which safety switch a request needs, judged from its method and path alone (after the base URL),
 * whatever operation the test says it is. This is the harness's last line of defence: a test that
 * builds an odd URL (a wrong version segment, a missing suffix) is still classified.
 */
export function switchForRequest(method: string, pathAfterBase: string): SafetySwitch | undefined {
  const m = method.toUpperCase();
  if (m === 'GET' || m === 'HEAD' || m === 'OPTIONS') return undefined;
  let p = pathAfterBase.split('?')[0]!;
  try {
    p = decodeURIComponent(p);
  } catch {
    // keep it encoded
  }
  p = p.toLowerCase();
  if (p.includes('transfer')) return 'moneyMovement';
  if (p.includes('revoke') || p.includes('oauth')) return 'tokenRevocation';
  if (p.includes('contact') || p.includes('/customer')) return 'contactUpdate';
  if (/institution-?disclosure/.test(p) && !/user-?disclosure/.test(p)) return 'institutionDisclosureWrites';
  return undefined;
}
