import type { JsonObject } from './dialect';
import { obj, ref, success, type Dict, type RecipeAuth, type RecipePlan, type RecipeStep } from './recipe-plan';
import { RenderingError, targetBaseUrls } from './renderings';

/**
 * The recipe's requests (the plan of recipe-plan.ts) for the target of a configuration: every operation once, in
 * the order the ids need, each built by a function named after it from the configuration's test data. A request
 * whose safety switch (`allow.…`) is off is left out, said.
 */

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

/** A string of the configuration's test data, or why the recipe cannot be made. */
function text(config: Dict, at: string, file: string, fallback?: string): string {
  const v = at.split('.').reduce<unknown>((o, k) => obj(o)[k], config);
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number') return String(v);
  if (fallback !== undefined) return fallback;
  throw new RenderingError(`${file}: ${at} is missing (the recipes send it)`);
}

const INST = '/db-disclosures/v1/institution-disclosures';
const USER = '/db-disclosures/v1/institution-user-disclosures';
const JSON_TYPE = { 'Content-Type': 'application/json' };
const CREATED = ref('institutionDisclosureId');
const LISTED = ref('institutionUserDisclosureId');
const BEARER: RecipeAuth = { scheme: 'bearer', token: ref('bearerToken'), securityScheme: 'disclosuresBearer' };
const DISCLOSURES = { base: 'baseUrl' as const, auth: BEARER };

/** What the requests are made of: the configuration's test data, read once (a missing value is said here). */
interface PlanData {
  doc: JsonObject;
  /** A string of `testData.…`, its fallback, or a RenderingError naming it. */
  td: (at: string, fallback?: string) => string;
  callingAppId: string;
  common: Record<string, string>;
  institutionId: string;
  accountId: string;
  /** The name of the disclosure the recipe creates. */
  name: string;
  /** The business customer's query parameter, where the configuration names one. */
  business: Record<string, string>;
  accountType: string | undefined;
  transfer: Dict;
  phone: string;
  country: string;
}

/** The test data of a configuration, in the order its absence is said (the first missing value is named). */
function planData(doc: JsonObject, c: Dict, file: string): PlanData {
  const td = (at: string, fallback?: string) => text(c, `testData.${at}`, file, fallback);
  const optional = (at: string) => {
    const v = td(at, '');
    return v === '' ? undefined : v;
  };
  const callingAppId = text(c, 'callingAppId', file, 'dbsi-conformance-recipe');
  const institutionId = td('institutionId');
  const accountId = td('accountId');
  const name = `DBSI recipe disclosure (${td('disclosure.institutionDisclosureName', 'conformance')})`;
  const customer = optional('institutionCustomerId');
  const accountType = optional('accountType');
  return {
    doc,
    td,
    callingAppId,
    common: { TransactionId: ref('$uuid'), callingAppId },
    institutionId,
    accountId,
    name,
    business: customer ? { InstitutionCustomerId: customer } : {},
    accountType,
    transfer: obj(obj(c.testData).transfer),
    phone: td('customer.phoneNumber'),
    // A country code only where the operator states it is on record: rule 2 proves the number, never its country code
    // (suites/contact-info/_country-code.ts, session 41).
    country: obj(obj(c.testData).customer).countryCodeConfirmed === true ? td('customer.countryCode', '') : '',
  };
}

type StepFields = Omit<RecipeStep, 'status' | 'schema' | 'pathParams' | 'query' | 'requires'> & Partial<RecipeStep>;

/** A step with the document's success status and schema of its operation, and no parameters unless given. */
function step(d: PlanData, s: StepFields): RecipeStep {
  return { pathParams: {}, query: {}, requires: [], ...success(d.doc, s.operationId), ...s } as RecipeStep;
}

/** Operations 1 to 3: the institution's disclosures listed, one created for the recipe, then changed by its id. */
function institutionDisclosureSteps(d: PlanData): RecipeStep[] {
  const { common, institutionId, name } = d;
  return [
    step(d, {
      ...DISCLOSURES,
      name: 'listInstitutionDisclosures',
      operationId: 'listInstitutionDisclosures',
      method: 'GET',
      path: INST,
      headers: { ...common },
      why: "the institution's disclosures",
    }),
    step(d, {
      ...DISCLOSURES,
      name: 'createInstitutionDisclosure',
      operationId: 'createInstitutionDisclosure',
      method: 'POST',
      path: INST,
      headers: {
        ...common,
        ...JSON_TYPE,
        InstitutionId: institutionId,
        InstitutionDisclosureName: name,
        InstitutionDisclosureStatus: 'true',
      },
      body: { institutionId, institutionDisclosureName: name, institutionDisclosureStatus: true },
      capture: { name: 'institutionDisclosureId', from: 'created' },
      why: 'a disclosure of its own, so that no record of the institution or the user is touched',
    }),
    changeInstitutionDisclosure(d),
  ];
}

/** Operation 3: the created disclosure changed, by the id its create answered. */
function changeInstitutionDisclosure(d: PlanData): RecipeStep {
  const { common, institutionId, name } = d;
  return step(d, {
    ...DISCLOSURES,
    name: 'changeInstitutionDisclosure',
    operationId: 'changeInstitutionDisclosure',
    method: 'PUT',
    path: `${INST}/{institutionDisclosureId}`,
    pathParams: { institutionDisclosureId: CREATED },
    headers: {
      ...common,
      ...JSON_TYPE,
      InstitutionId: institutionId,
      InstitutionDisclosureName: name,
      InstitutionDisclosureStatus: 'false',
    },
    body: {
      institutionDisclosureId: CREATED,
      institutionId,
      institutionDisclosureName: name,
      institutionDisclosureStatus: false,
    },
    requires: ['institutionDisclosureId'],
    why: 'the created disclosure, by the id its create answered',
  });
}

/** Operation 5: the user's acceptance of the created disclosure; `again` for the collection form's delete. */
function createUserDisclosure(d: PlanData, again: boolean): RecipeStep {
  const { common, name, accountId } = d;
  return step(d, {
    ...DISCLOSURES,
    name: again ? 'createUserDisclosureAgain' : 'createUserDisclosure',
    operationId: 'createUserDisclosure',
    method: 'POST',
    path: USER,
    headers: {
      ...common,
      ...JSON_TYPE,
      InstitutionUserDisclosureStatus: 'ACCEPTED',
      InstitutionDisclosureName: name,
      AccountId: accountId,
      InstitutionDisclosureId: CREATED,
      InstitutionUserDisclosureStatusUpdateDateTime: ref('$now'),
    },
    body: { institutionUserDisclosureStatus: 'ACCEPTED', institutionDisclosureName: name },
    requires: again ? ['institutionDisclosureId', 'institutionUserDisclosureId'] : ['institutionDisclosureId'],
    why: again
      ? 'the record again, deleted by the collection form next (the by-id form deleted the first)'
      : "the user's acceptance of the created disclosure, on the configured account",
  });
}

/** Operation 4: the configured user's records, capturing the id of the created one where the list shows it. */
function listUserDisclosures(d: PlanData): RecipeStep {
  return step(d, {
    ...DISCLOSURES,
    name: 'listUserDisclosures',
    operationId: 'listUserDisclosures',
    method: 'GET',
    path: USER,
    query: { InstitutionConsumerId: d.td('institutionUserId') },
    headers: { ...d.common },
    capture: { name: 'institutionUserDisclosureId', from: 'listed' },
    why: "the configured user's records, with the id of the created one where the list shows it",
  });
}

/** Operation 6: the created record changed, by the id the list showed or by its disclosure. */
function changeUserDisclosure(d: PlanData, byId: boolean): RecipeStep {
  const { common, name } = d;
  return step(d, {
    ...DISCLOSURES,
    name: byId ? 'changeUserDisclosureById' : 'changeUserDisclosure',
    operationId: byId ? 'changeUserDisclosureById' : 'changeUserDisclosure',
    method: 'PUT',
    path: byId ? `${USER}/{institutionUserDisclosureId}` : USER,
    pathParams: byId ? { institutionUserDisclosureId: LISTED } : {},
    query: d.business,
    headers: {
      ...common,
      ...JSON_TYPE,
      InstitutionDisclosureId: CREATED,
      InstitutionUserDisclosureStatus: byId ? 'NOT_ACCEPTED' : 'ACCEPTED',
      InstitutionDisclosureName: name,
    },
    body: {
      institutionDisclosureId: CREATED,
      institutionDisclosureName: name,
      institutionDisclosureStatus: byId ? 'NOT_ACCEPTED' : 'ACCEPTED',
    },
    requires: byId ? ['institutionDisclosureId', 'institutionUserDisclosureId'] : ['institutionDisclosureId'],
    why: byId
      ? 'the created record by the id the list showed (not sent where the list shows no id, as the spec allows)'
      : 'the created record, found by its disclosure',
  });
}

/** Operation 7: the created record deleted, by the id the list showed or by its name and account. */
function deleteUserDisclosure(d: PlanData, byId: boolean): RecipeStep {
  const { common, name, accountId, accountType } = d;
  return step(d, {
    ...DISCLOSURES,
    name: byId ? 'deleteUserDisclosureById' : 'deleteUserDisclosure',
    operationId: byId ? 'deleteUserDisclosureById' : 'deleteUserDisclosure',
    method: 'DELETE',
    path: byId ? `${USER}/{institutionUserDisclosureId}` : USER,
    pathParams: byId ? { institutionUserDisclosureId: LISTED } : {},
    query: { ...d.business, ...(accountType ? { AccountType: accountType } : {}) },
    headers: { ...common, ...JSON_TYPE, InstitutionUserDisclosureStatus: 'ACCEPTED', AccountId: accountId },
    body: { institutionDisclosureName: name, accountId },
    requires: byId ? ['institutionDisclosureId', 'institutionUserDisclosureId'] : ['institutionDisclosureId'],
    why: byId
      ? 'the created record by the id the list showed (not sent where the list shows no id)'
      : 'the created record, found by its name and account',
  });
}

/** Token revocation: the configured refresh token, with the revocation client's Basic credentials. */
function revokeToken(d: PlanData): RecipeStep {
  const { td } = d;
  return step(d, {
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
      institutionId: td('revocation.institutionId', d.institutionId),
      transactionId: ref('$uuid'),
      ...JSON_TYPE,
    },
    body: {
      grant_type: td('revocation.grant_type', 'refresh_token'),
      username: td('revocation.username', td('institutionUserId')),
      password: ref('revocationPassword'),
      scopes: td('revocation.scopes', 'openid'),
      refresh_token: ref('revocationRefreshToken'),
    },
    why: 'the configured refresh token (DBSI_REVOCATION_REFRESH_TOKEN), revoked',
  });
}

/** A transfer of the configured amount between the configured accounts: it moves money. */
function createTransfer(d: PlanData): RecipeStep {
  const { td, transfer } = d;
  return step(d, {
    name: 'createTransfer',
    operationId: 'createTransfer',
    method: 'POST',
    base: 'transfersBaseUrl',
    path: '/db-transfers/v1/transfers',
    auth: { scheme: 'bearer', token: ref('transfersToken'), securityScheme: 'transfersBearer' },
    headers: { Accept: 'application/json', transactionId: ref('$uuid'), ...JSON_TYPE },
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
  });
}

/** The phone number on record changed to itself (rule 2: oldPhoneNumber matches it): nothing changes. */
function updateContactInfo(d: PlanData): RecipeStep {
  const { phone, country } = d;
  return step(d, {
    name: 'updateContactInfo',
    operationId: 'updateContactInfo',
    method: 'PUT',
    base: 'baseUrl',
    path: '/customers/{customerId}:contact-info',
    pathParams: { customerId: d.td('customer.customerId') },
    // "Authentication of the contact-info operations: not shown": the disclosures' bearer token, as the suite.
    auth: BEARER,
    headers: { ...JSON_TYPE },
    body: {
      userIdType: d.td('customer.userIdType', 'CUSTOMER_ID'),
      phoneNumber: {
        oldPhoneNumber: phone,
        ...(country ? { oldCountryCode: country } : {}),
        newPhoneNumber: phone,
        ...(country ? { newCountryCode: country } : {}),
      },
    },
    why: 'the phone number on record, changed to itself (rule 2: oldPhoneNumber matches it); nothing changes',
  });
}

/** Every request, in the order the ids need: the by-id forms first, each record made again for the other form. */
function allSteps(d: PlanData): RecipeStep[] {
  return [
    ...institutionDisclosureSteps(d),
    createUserDisclosure(d, false),
    listUserDisclosures(d),
    changeUserDisclosure(d, true),
    changeUserDisclosure(d, false),
    deleteUserDisclosure(d, true),
    createUserDisclosure(d, true),
    deleteUserDisclosure(d, false),
    revokeToken(d),
    createTransfer(d),
    updateContactInfo(d),
  ];
}

/** The operationId of every operation of the OpenAPI document, in its order. */
function documentedOperationIds(doc: JsonObject): string[] {
  return Object.values(obj(doc.paths)).flatMap((item) =>
    Object.values(obj(item))
      .map((op) => (typeof op === 'object' && op !== null ? (op as JsonObject).operationId : undefined))
      .filter((id): id is string => typeof id === 'string'),
  );
}

/** The recipe's requests for the target of a configuration file's JSON (`file` names it in messages). */
export function recipePlan(doc: JsonObject, configJson: unknown, file: string): RecipePlan {
  const c = obj(configJson);
  const urls = targetBaseUrls(c, file);
  const d = planData(doc, c, file);
  const steps = allSteps(d);
  if (Number.isNaN(Number(d.td('transfer.amount')))) throw new RenderingError(`${file}: testData.transfer.amount`);
  const allow = obj(c.allow);
  const off = (s: RecipeStep) => SWITCHES[s.operationId] !== undefined && allow[SWITCHES[s.operationId]!] !== true;
  const omitted = [...new Set(steps.filter(off).map((s) => s.operationId))].map((operationId) => ({
    operationId,
    why: `allow.${SWITCHES[operationId]} is not true in ${file} (it writes)`,
  }));
  // An operation of the document with no step written here yet (a new one) is said, not silently left out.
  const stepped = new Set(steps.map((s) => s.operationId));
  for (const operationId of documentedOperationIds(doc).filter((id) => !stepped.has(id)))
    omitted.push({ operationId, why: 'no recipe step is written for it yet (harness/openapi/recipe-requests.ts)' });
  const name = text(c, 'name', file, file);
  return { name, urls, callingAppId: d.callingAppId, steps: steps.filter((s) => !off(s)), omitted };
}
