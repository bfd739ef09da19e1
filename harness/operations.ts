import type { Area, SafetySwitch } from './model';

/** Which configured base URL an operation's path is appended to. */
export type BaseUrlKey = 'baseUrl' | 'authBaseUrl' | 'transfersBaseUrl';
/**
 * An operation's base: one of the three, or contactInfoBaseUrl (optional in the configuration, default
 * baseUrl: a gateway may expose the contact-info area under a prefix of its own).
 */
export type OperationBaseKey = BaseUrlKey | 'contactInfoBaseUrl';

export interface OperationDef {
  /** The number of the operation in the spec's "Endpoints" section. */
  number: number;
  area: Area;
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  base: OperationBaseKey;
  /** Path template as the spec writes it; {name} segments are path parameters. */
  path: string;
  /** Spec section heading (anchor derived from it). */
  section: string;
  /** The safety switch a request of this operation needs, if it changes real things. */
  mutates?: SafetySwitch;
}

const D = '/db-disclosures/v1';

export const OPERATIONS = {
  listInstitutionDisclosures: {
    number: 1,
    area: 'disclosures',
    name: 'List institution disclosures',
    method: 'GET',
    base: 'baseUrl',
    path: `${D}/institution-disclosures`,
    section: '1. List institution disclosures',
  },
  createInstitutionDisclosure: {
    number: 2,
    area: 'disclosures',
    name: 'Create an institution disclosure',
    method: 'POST',
    base: 'baseUrl',
    path: `${D}/institution-disclosures`,
    section: '2. Create an institution disclosure',
    mutates: 'institutionDisclosureWrites',
  },
  changeInstitutionDisclosure: {
    number: 3,
    area: 'disclosures',
    name: 'Change an institution disclosure',
    method: 'PUT',
    base: 'baseUrl',
    path: `${D}/institution-disclosures/{institutionDisclosureId}`,
    section: '3. Change an institution disclosure',
    mutates: 'institutionDisclosureWrites',
  },
  listUserDisclosures: {
    number: 4,
    area: 'disclosures',
    name: 'List the disclosures accepted by a user',
    method: 'GET',
    base: 'baseUrl',
    path: `${D}/institution-user-disclosures`,
    section: '4. List the disclosures accepted by a user',
  },
  createUserDisclosure: {
    number: 5,
    area: 'disclosures',
    name: 'Create a user disclosure acceptance record',
    method: 'POST',
    base: 'baseUrl',
    path: `${D}/institution-user-disclosures`,
    section: '5. Create a user disclosure acceptance record',
  },
  changeUserDisclosure: {
    number: 6,
    area: 'disclosures',
    name: 'Change a user disclosure',
    method: 'PUT',
    base: 'baseUrl',
    path: `${D}/institution-user-disclosures`,
    section: '6. Change a user disclosure',
  },
  changeUserDisclosureById: {
    number: 6,
    area: 'disclosures',
    name: 'Change a user disclosure',
    method: 'PUT',
    base: 'baseUrl',
    path: `${D}/institution-user-disclosures/{institutionUserDisclosureId}`,
    section: '6. Change a user disclosure',
  },
  deleteUserDisclosure: {
    number: 7,
    area: 'disclosures',
    name: 'Delete a user disclosure',
    method: 'DELETE',
    base: 'baseUrl',
    path: `${D}/institution-user-disclosures`,
    section: '7. Delete a user disclosure',
  },
  deleteUserDisclosureById: {
    number: 7,
    area: 'disclosures',
    name: 'Delete a user disclosure',
    method: 'DELETE',
    base: 'baseUrl',
    path: `${D}/institution-user-disclosures/{institutionUserDisclosureId}`,
    section: '7. Delete a user disclosure',
  },
  revokeToken: {
    number: 8,
    area: 'authentication',
    name: 'Revoke a token',
    method: 'DELETE',
    base: 'authBaseUrl',
    path: '/oauth2/v1/revoke',
    section: '8. Revoke a token',
    mutates: 'tokenRevocation',
  },
  createTransfer: {
    number: 9,
    area: 'money-movement',
    name: 'Create a transfer',
    method: 'POST',
    base: 'transfersBaseUrl',
    path: '/db-transfers/v1/transfers',
    section: '9. Create a transfer',
    mutates: 'moneyMovement',
  },
  updateContactInfo: {
    number: 10,
    area: 'contact-info',
    name: 'Update contact information',
    method: 'PUT',
    base: 'contactInfoBaseUrl',
    path: '/customers/{customerId}:contact-info',
    section: '10. Update contact information',
    mutates: 'contactUpdate',
  },
} as const satisfies Record<string, OperationDef>;

export type OperationKey = keyof typeof OPERATIONS;

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
