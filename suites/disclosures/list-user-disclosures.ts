import { listUserDisclosuresRequest, type Credentials } from '../../data-builders/disclosures';
import { feature, type CaseContext } from '../../harness/case';
import { belongs_to_user, json_object_body, required_members, schema_conformance, shown_value, shows_none_of, success_status } from '../../harness/checks';
import { is2xx } from './_institution-disclosures';
import { findRecord, listUserRecords, type UserRecord } from './_user-records';
import { userIds } from './_other-records';
import { sharedRecord } from './_shared-record';
import { authenticationCases } from './_authentication';

/** Operation 4: GET /db-disclosures/v1/institution-user-disclosures?InstitutionConsumerId=… */

const list = (t: CaseContext, credentials: Credentials = 'valid') =>
  t.send({ operation: 'listUserDisclosures', ...listUserDisclosuresRequest(t.faker, t.config, credentials), label: 'list user disclosures' });

/**
 * The list with at least one element: a record this run created, shared with the other cases that
 * only read one (deleted by the last of them); "not applicable" should it be gone (a faulty target
 * that served a change or delete without credentials; reported by DISC-AUTH-REQUIRED).
 */
async function listWithARecord(t: CaseContext) {
  const { d } = await sharedRecord(t);
  const listed = await t.step('list', () => listUserRecords(t));
  if (!findRecord(listed.records, d)) t.notApplicable(`the acceptance record of "${d.institutionDisclosureName}" this run created is no longer listed`);
  return listed;
}

/**
 * The configured user's records and the ids the user is known by. Where the list is empty, or shows
 * an institutionUserId other than the one sent, the case uses a record this run created (shared
 * with the other cases that only read one) to learn which id the target gives this user's records.
 */
async function theUsersRecords(t: CaseContext) {
  let listed = await listUserRecords(t);
  let ids = userIds(t);
  if (listed.records.length === 0 || listed.records.some((r) => typeof r.institutionUserId === 'string' && !ids.has(r.institutionUserId))) {
    const { record } = await sharedRecord(t);
    ids = userIds(t, record);
    listed = await t.step('list', () => listUserRecords(t));
  }
  return { ...listed, ids };
}

/** Another consumer: the configured testData.otherInstitutionUserId, else a made-up id nobody uses, named after the run. */
const otherConsumer = (t: CaseContext) => t.config.testData.otherInstitutionUserId ?? `dbsi-${t.settings.runId}-nobody-${t.faker.string.alphanumeric({ length: 8, casing: 'lower' })}`;

export default feature('disclosures', 'listUserDisclosures', [
  {
    title: 'answers a 2xx to a request with the three common headers and InstitutionConsumerId',
    requirements: ['OP4-REQUEST'],
    async run(t) {
      t.verify('OP4-REQUEST', success_status(await list(t)));
    },
  },
  {
    title: 'answers a JSON object holding the institutionUserDisclosures array',
    requirements: ['CONV-JSON-BODIES', 'OP4-RESPONSE-ENVELOPE'],
    async run(t) {
      const res = await list(t);
      if (!is2xx(res)) t.notApplicable(`the list request was not served (status ${res.status}; reported by OP4-REQUEST)`);
      t.verify('CONV-JSON-BODIES', json_object_body(res));
      t.verify('OP4-RESPONSE-ENVELOPE', schema_conformance(res, 'institution-user-disclosure-list'));
    },
  },
  {
    title: 'lists records that each carry institutionId, institutionUserId, institutionUserDisclosureStatus and institutionDisclosureName',
    requirements: ['OP4-RESPONSE-MEMBERS'],
    async run(t) {
      const { res, records } = await listWithARecord(t);
      records.forEach((r, i) => t.verify('OP4-RESPONSE-MEMBERS', required_members(r, ['institutionId', 'institutionUserId', 'institutionUserDisclosureStatus', 'institutionDisclosureName'], `institutionUserDisclosures[${i}]`, res)));
    },
  },
  {
    title: 'lists records whose members have the documented types',
    requirements: ['RES-USERDISC-FIELD-TYPES'],
    async run(t) {
      const { res, records } = await listWithARecord(t);
      records.forEach((r, i) => t.verify('RES-USERDISC-FIELD-TYPES', schema_conformance(res, 'institution-user-disclosure', r, `institutionUserDisclosures[${i}]`)));
    },
  },
  {
    title: 'lists only the statuses the spec shows (ACCEPTED, NOT_ACCEPTED)',
    requirements: ['RES-USERDISC-STATUS-VALUES'],
    async run(t) {
      const { res, records } = await listWithARecord(t);
      records.forEach((r, i) => t.verify('RES-USERDISC-STATUS-VALUES', shown_value(r.institutionUserDisclosureStatus, ['ACCEPTED', 'NOT_ACCEPTED'], `institutionUserDisclosures[${i}].institutionUserDisclosureStatus`, res)));
    },
  },
  {
    title: 'lists only records of the user named by InstitutionConsumerId',
    requirements: ['OP4-ONLY-THE-USERS-RECORDS'],
    async run(t) {
      const { res, records, ids } = await theUsersRecords(t);
      records.forEach((r, i) => t.verify('OP4-ONLY-THE-USERS-RECORDS', belongs_to_user(r, ids, `institutionUserDisclosures[${i}]`, res)));
    },
  },
  {
    title: "does not answer a list for another consumer with the configured user's records",
    requirements: ['OP4-OTHER-CONSUMER'],
    async run(t) {
      const mine = await theUsersRecords(t);
      const other = otherConsumer(t);
      await t.parameter('InstitutionConsumerId', other);
      const req = listUserDisclosuresRequest(t.faker, t.config);
      const res = await t.step('list for another consumer', () => t.send({ operation: 'listUserDisclosures', ...req, query: { ...req.query, InstitutionConsumerId: other }, label: 'list user disclosures of another consumer' }));
      const listed = (res.json as { institutionUserDisclosures?: unknown } | undefined)?.institutionUserDisclosures;
      const records = Array.isArray(listed) ? listed.filter((r): r is UserRecord => r !== null && typeof r === 'object') : [];
      const recordIds = new Set<unknown>(mine.records.map((r) => r.institutionUserDisclosureId).filter((id) => typeof id === 'string'));
      const isTheUsers = (r: UserRecord) => (typeof r.institutionUserId === 'string' && mine.ids.has(r.institutionUserId)) || recordIds.has(r.institutionUserDisclosureId);
      t.verify('OP4-OTHER-CONSUMER', shows_none_of(records, isTheUsers, `the configured user (${t.config.testData.institutionUserId})`, res));
    },
  },
  ...authenticationCases((t, credentials) => list(t, credentials)),
]);
