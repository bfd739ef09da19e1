import type { BaseUrlKey } from '../operations';
import type { JsonObject } from './dialect';
import { RenderingError, targetBaseUrls, type TargetBaseUrls } from './renderings';

/**
 * The requests a tool's recipe sends (Portman + newman, Step CI, Dredd: harness/openapi/recipe-*.ts), from a
 * target configuration: every operation once, with the credentials of its security scheme, the configuration's
 * test data and the ids the target issued carried forward. Values are templates: `{{name}}` names a variable
 * of VARIABLES (a secret read from the environment, an id captured from an earlier answer, or a value made at
 * run time); each renderer writes it in its tool's syntax. No secret value is ever read here: a configuration's
 * credentials are never copied, only the name of the variable that carries them.
 */

/** The secrets a recipe sends, each by the environment variable the suite reads it from (harness/config.ts). */
export const SECRET_VARIABLES = {
  bearerToken: 'DBSI_BEARER_TOKEN',
  transfersToken: 'DBSI_TRANSFERS_TOKEN',
  revocationClientId: 'DBSI_REVOCATION_CLIENT_ID',
  revocationClientSecret: 'DBSI_REVOCATION_CLIENT_SECRET',
  revocationPassword: 'DBSI_REVOCATION_PASSWORD',
  revocationRefreshToken: 'DBSI_REVOCATION_REFRESH_TOKEN',
} as const;
export type SecretName = keyof typeof SECRET_VARIABLES;

/** Ids the target issues, captured from an answer and sent in later requests. */
export const CAPTURES = {
  institutionDisclosureId: 'the institutionDisclosureId of the disclosure the recipe created (operation 2)',
  institutionUserDisclosureId:
    "the institutionUserDisclosureId the list of the user's records (operation 4) shows for the record the " +
    'recipe created (operation 5) on that disclosure',
} as const;
export type CaptureName = keyof typeof CAPTURES;

/** Values made when the request is sent. */
export const DYNAMIC = { $uuid: 'a new UUID for each request', $now: 'the current date-time' } as const;

export const VARIABLES = [...Object.keys(SECRET_VARIABLES), ...Object.keys(CAPTURES), ...Object.keys(DYNAMIC)];

/** `{{name}}`, the one template syntax of a plan. */
export const ref = (name: SecretName | CaptureName | keyof typeof DYNAMIC): string => `{{${name}}}`;

export type RecipeAuth =
  | { scheme: 'bearer'; token: string; securityScheme: string }
  | { scheme: 'basic'; username: string; password: string; securityScheme: string };

export interface RecipeStep {
  /** Unique in the plan; the operationId, or the operationId and `Again` for a repeated request. */
  name: string;
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  base: BaseUrlKey;
  /** The spec's path, with `{parameter}` placeholders. */
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  auth: RecipeAuth;
  body?: unknown;
  /** The success status the document gives the operation: one code, or any 2xx where it says `2XX`. */
  status: number | '2XX';
  /** The document's schema of the success body (referring to its components), when it gives one. */
  schema?: unknown;
  capture?: { name: CaptureName; from: 'created' | 'listed' };
  /** Captures this request needs: without one of them it is skipped (said why), never sent with a made-up id. */
  requires: CaptureName[];
  /** Why the request is there, and what a skip means. */
  why: string;
}

export interface RecipePlan {
  /** The configuration's name, and its base URLs (not secrets). */
  name: string;
  urls: TargetBaseUrls;
  callingAppId: string;
  steps: RecipeStep[];
  /** Operations left out: the configuration's safety switch for them is off (`allow`, as the suite reads it). */
  omitted: { operationId: string; why: string }[];
}

/** The safety switch (`allow.…`, off unless set) each writing operation needs, as the suite's runs need it. */
const SWITCHES: Record<string, string> = {
  createInstitutionDisclosure: 'institutionDisclosureWrites',
  changeInstitutionDisclosure: 'institutionDisclosureWrites',
  // The acceptance records are made on the disclosure the recipe creates.
  createUserDisclosure: 'institutionDisclosureWrites',
  changeUserDisclosure: 'institutionDisclosureWrites',
  changeUserDisclosureById: 'institutionDisclosureWrites',
  deleteUserDisclosure: 'institutionDisclosureWrites',
  deleteUserDisclosureById: 'institutionDisclosureWrites',
  revokeToken: 'tokenRevocation',
  createTransfer: 'moneyMovement',
  updateContactInfo: 'contactUpdate',
};

type Dict = Record<string, unknown>;
const obj = (v: unknown): Dict => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Dict) : {});

/** A string of the configuration's test data, or why the recipe cannot be made. */
function text(config: Dict, at: string, file: string, fallback?: string): string {
  const v = at.split('.').reduce<unknown>((o, k) => obj(o)[k], config);
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number') return String(v);
  if (fallback !== undefined) return fallback;
  throw new RenderingError(`${file}: ${at} is missing (the recipes send it)`);
}

/** The document's success status and body schema of an operation (`2XX` where it shows no code). */
export function success(doc: JsonObject, operationId: string): { status: number | '2XX'; schema?: unknown } {
  for (const item of Object.values(doc.paths as Record<string, Dict>)) {
    for (const op of Object.values(item).map(obj)) {
      if (op.operationId !== operationId) continue;
      const responses = obj(op.responses);
      const key = Object.keys(responses).find((k) => /^2/.test(k));
      if (!key) throw new RenderingError(`${operationId}: the document gives no success response`);
      const schema = obj(obj(obj(responses[key]).content)['application/json']).schema;
      return { status: key === '2XX' ? '2XX' : Number(key), ...(schema ? { schema } : {}) };
    }
  }
  throw new RenderingError(`${operationId}: not in the document`);
}

/** The recipe's requests for the target of a configuration file's JSON (`file` names it in messages). */
export function recipePlan(doc: JsonObject, configJson: unknown, file: string): RecipePlan {
  const c = obj(configJson);
  const urls = targetBaseUrls(c, file);
  const td = (at: string, fallback?: string) => text(c, `testData.${at}`, file, fallback);
  const optional = (at: string) => {
    const v = td(at, '');
    return v === '' ? undefined : v;
  };
  const callingAppId = text(c, 'callingAppId', file, 'dbsi-conformance-recipe');
  const institutionId = td('institutionId');
  const accountId = td('accountId');
  const name = `DBSI recipe disclosure (${td('disclosure.institutionDisclosureName', 'conformance')})`;
  const bearer: RecipeAuth = { scheme: 'bearer', token: ref('bearerToken'), securityScheme: 'disclosuresBearer' };
  const common = { TransactionId: ref('$uuid'), callingAppId };
  const json = { 'Content-Type': 'application/json' };
  const created = ref('institutionDisclosureId');
  const listed = ref('institutionUserDisclosureId');
  const customer = optional('institutionCustomerId');
  const accountType = optional('accountType');
  const business: Record<string, string> = customer ? { InstitutionCustomerId: customer } : {};
  const step = (s: Omit<RecipeStep, 'status' | 'schema' | 'pathParams' | 'query' | 'requires'> & Partial<RecipeStep>) =>
    ({ pathParams: {}, query: {}, requires: [], ...success(doc, s.operationId), ...s }) as RecipeStep;
  const disclosures = { base: 'baseUrl' as const, auth: bearer };
  const INST = '/db-disclosures/v1/institution-disclosures';
  const USER = '/db-disclosures/v1/institution-user-disclosures';
  const createUser = (again: boolean) =>
    step({
      ...disclosures,
      name: again ? 'createUserDisclosureAgain' : 'createUserDisclosure',
      operationId: 'createUserDisclosure',
      method: 'POST',
      path: USER,
      headers: {
        ...common,
        ...json,
        InstitutionUserDisclosureStatus: 'ACCEPTED',
        InstitutionDisclosureName: name,
        AccountId: accountId,
        InstitutionDisclosureId: created,
        InstitutionUserDisclosureStatusUpdateDateTime: ref('$now'),
      },
      body: { institutionUserDisclosureStatus: 'ACCEPTED', institutionDisclosureName: name },
      requires: again ? ['institutionDisclosureId', 'institutionUserDisclosureId'] : ['institutionDisclosureId'],
      why: again
        ? 'the record again, deleted by the collection form next (the by-id form deleted the first)'
        : "the user's acceptance of the created disclosure, on the configured account",
    });
  const changeUser = (byId: boolean) =>
    step({
      ...disclosures,
      name: byId ? 'changeUserDisclosureById' : 'changeUserDisclosure',
      operationId: byId ? 'changeUserDisclosureById' : 'changeUserDisclosure',
      method: 'PUT',
      path: byId ? `${USER}/{institutionUserDisclosureId}` : USER,
      pathParams: byId ? { institutionUserDisclosureId: listed } : {},
      query: business,
      headers: {
        ...common,
        ...json,
        InstitutionDisclosureId: created,
        InstitutionUserDisclosureStatus: byId ? 'NOT_ACCEPTED' : 'ACCEPTED',
        InstitutionDisclosureName: name,
      },
      body: {
        institutionDisclosureId: created,
        institutionDisclosureName: name,
        institutionDisclosureStatus: byId ? 'NOT_ACCEPTED' : 'ACCEPTED',
      },
      requires: byId ? ['institutionDisclosureId', 'institutionUserDisclosureId'] : ['institutionDisclosureId'],
      why: byId
        ? 'the created record by the id the list showed (not sent where the list shows no id, as the spec allows)'
        : 'the created record, found by its disclosure',
    });
  const deleteUser = (byId: boolean) =>
    step({
      ...disclosures,
      name: byId ? 'deleteUserDisclosureById' : 'deleteUserDisclosure',
      operationId: byId ? 'deleteUserDisclosureById' : 'deleteUserDisclosure',
      method: 'DELETE',
      path: byId ? `${USER}/{institutionUserDisclosureId}` : USER,
      pathParams: byId ? { institutionUserDisclosureId: listed } : {},
      query: { ...business, ...(accountType ? { AccountType: accountType } : {}) },
      headers: { ...common, ...json, InstitutionUserDisclosureStatus: 'ACCEPTED', AccountId: accountId },
      body: { institutionDisclosureName: name, accountId },
      requires: byId ? ['institutionDisclosureId', 'institutionUserDisclosureId'] : ['institutionDisclosureId'],
      why: byId
        ? 'the created record by the id the list showed (not sent where the list shows no id)'
        : 'the created record, found by its name and account',
    });
  const transfer = obj(obj(c.testData).transfer);
  const phone = td('customer.phoneNumber');
  const country = td('customer.countryCode', '');
  const steps: RecipeStep[] = [
    step({
      ...disclosures,
      name: 'listInstitutionDisclosures',
      operationId: 'listInstitutionDisclosures',
      method: 'GET',
      path: INST,
      headers: { ...common },
      why: "the institution's disclosures",
    }),
    step({
      ...disclosures,
      name: 'createInstitutionDisclosure',
      operationId: 'createInstitutionDisclosure',
      method: 'POST',
      path: INST,
      headers: {
        ...common,
        ...json,
        InstitutionId: institutionId,
        InstitutionDisclosureName: name,
        InstitutionDisclosureStatus: 'true',
      },
      body: { institutionId, institutionDisclosureName: name, institutionDisclosureStatus: true },
      capture: { name: 'institutionDisclosureId', from: 'created' },
      why: 'a disclosure of its own, so that no record of the institution or the user is touched',
    }),
    step({
      ...disclosures,
      name: 'changeInstitutionDisclosure',
      operationId: 'changeInstitutionDisclosure',
      method: 'PUT',
      path: `${INST}/{institutionDisclosureId}`,
      pathParams: { institutionDisclosureId: created },
      headers: {
        ...common,
        ...json,
        InstitutionId: institutionId,
        InstitutionDisclosureName: name,
        InstitutionDisclosureStatus: 'false',
      },
      body: {
        institutionDisclosureId: created,
        institutionId,
        institutionDisclosureName: name,
        institutionDisclosureStatus: false,
      },
      requires: ['institutionDisclosureId'],
      why: 'the created disclosure, by the id its create answered',
    }),
    createUser(false),
    step({
      ...disclosures,
      name: 'listUserDisclosures',
      operationId: 'listUserDisclosures',
      method: 'GET',
      path: USER,
      query: { InstitutionConsumerId: td('institutionUserId') },
      headers: { ...common },
      capture: { name: 'institutionUserDisclosureId', from: 'listed' },
      why: "the configured user's records, with the id of the created one where the list shows it",
    }),
    changeUser(true),
    changeUser(false),
    deleteUser(true),
    createUser(true),
    deleteUser(false),
    step({
      name: 'revokeToken',
      operationId: 'revokeToken',
      method: 'DELETE',
      base: 'authBaseUrl',
      path: '/oauth2/v1/revoke',
      auth: {
        scheme: 'basic',
        username: ref('revocationClientId'),
        password: ref('revocationClientSecret'),
        securityScheme: 'revocationBasic',
      },
      headers: {
        Accept: 'application/json',
        institutionId: td('revocation.institutionId', institutionId),
        transactionId: ref('$uuid'),
        ...json,
      },
      body: {
        grant_type: td('revocation.grant_type', 'refresh_token'),
        username: td('revocation.username', td('institutionUserId')),
        password: ref('revocationPassword'),
        scopes: td('revocation.scopes', 'openid'),
        refresh_token: ref('revocationRefreshToken'),
      },
      why: 'the configured refresh token (DBSI_REVOCATION_REFRESH_TOKEN), revoked',
    }),
    step({
      name: 'createTransfer',
      operationId: 'createTransfer',
      method: 'POST',
      base: 'transfersBaseUrl',
      path: '/db-transfers/v1/transfers',
      auth: { scheme: 'bearer', token: ref('transfersToken'), securityScheme: 'transfersBearer' },
      headers: { Accept: 'application/json', transactionId: ref('$uuid'), ...json },
      body: {
        ...(transfer.fromAccountHolderId ? { fromAccountHolderId: td('transfer.fromAccountHolderId') } : {}),
        ...(transfer.toAccountHolderId ? { toAccountHolderId: td('transfer.toAccountHolderId') } : {}),
        fromAccountId: td('transfer.fromAccountId'),
        toAccountId: td('transfer.toAccountId'),
        amount: { currencyCode: td('transfer.currencyCode'), amount: Number(td('transfer.amount')) },
        memo: 'DBSI recipe',
        paymentOption: 'DEFAULT',
      },
      why: 'the configured amount between the configured accounts: it moves money',
    }),
    step({
      name: 'updateContactInfo',
      operationId: 'updateContactInfo',
      method: 'PUT',
      base: 'baseUrl',
      path: '/customers/{customerId}:contact-info',
      pathParams: { customerId: td('customer.customerId') },
      // "Authentication of the contact-info operations: not shown": the disclosures' bearer token, as the suite.
      auth: bearer,
      headers: { ...json },
      body: {
        userIdType: td('customer.userIdType', 'CUSTOMER_ID'),
        phoneNumber: {
          oldPhoneNumber: phone,
          ...(country ? { oldCountryCode: country } : {}),
          newPhoneNumber: phone,
          ...(country ? { newCountryCode: country } : {}),
        },
      },
      why: 'the phone number on record, changed to itself (rule 2: oldPhoneNumber matches it); nothing changes',
    }),
  ];
  if (Number.isNaN(Number(td('transfer.amount')))) throw new RenderingError(`${file}: testData.transfer.amount`);
  const allow = obj(c.allow);
  const off = (s: RecipeStep) => SWITCHES[s.operationId] !== undefined && allow[SWITCHES[s.operationId]!] !== true;
  const omitted = [...new Set(steps.filter(off).map((s) => s.operationId))].map((operationId) => ({
    operationId,
    why: `allow.${SWITCHES[operationId]} is not true in ${file}`,
  }));
  return { name: text(c, 'name', file, file), urls, callingAppId, steps: steps.filter((s) => !off(s)), omitted };
}

/** Every `{{name}}` of a value, and the value with each replaced by `to(name)`. */
export function mapTemplates(value: unknown, to: (name: string) => unknown): unknown {
  if (typeof value === 'string') {
    const whole = /^\{\{([$\w]+)\}\}$/.exec(value);
    if (whole) return to(whole[1]!);
    return value.replace(/\{\{([$\w]+)\}\}/g, (_, n: string) => String(to(n)));
  }
  if (Array.isArray(value)) return value.map((v) => mapTemplates(v, to));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapTemplates(v, to)]));
  return value;
}

/** The path of a step with its parameters: literal test data URL-encoded, templates as `to` writes them. */
export function stepPath(s: RecipeStep, to: (name: string) => string): string {
  return s.path.replace(/\{(\w+)\}/g, (_, p: string) => {
    const v = s.pathParams[p] ?? '';
    return /^\{\{[$\w]+\}\}$/.test(v) ? String(mapTemplates(v, to)) : encodeURIComponent(v);
  });
}
