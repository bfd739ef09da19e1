import { listUserDisclosuresRequest, type Credentials } from '../../data-builders/disclosures';
import { feature, type CaseContext } from '../../harness/case';
import { belongs_to_user, json_object_body, required_members, schema_conformance, shown_value, shows_none_of, success_status } from '../../harness/checks';
import { is2xx } from './_institution-disclosures';
import { findRecord, listUserRecords, type UserRecord } from './_user-records';
import { userIds } from './_other-records';
import { lifecycleStep } from './_record-lifecycle';
import { authenticationCases } from './_authentication';
import { userListNotServed, withSetupNote } from './_test-data';
import { SHOWN } from '../../harness/shown-values';

/** Operation 4: GET /db-disclosures/v1/institution-user-disclosures?InstitutionConsumerId=… */

const list = (t: CaseContext, credentials: Credentials = 'valid') =>
  t.send({ operation: 'listUserDisclosures', ...listUserDisclosuresRequest(t.faker, t.config, credentials), label: 'list user disclosures' });

/**
 * The list with at least one element: the list that follows the create of the records' life
 * (_record-lifecycle.ts), which shows the record it created, judged here too (no request of its own);
 * "not applicable" where the life could not create one (reported by the rules of operation 5).
 */
async function listWithARecord(t: CaseContext) {
  const { d, res, after } = await lifecycleStep(t, 'create');
  if (!is2xx(res)) t.notApplicable(`creating an acceptance record was not served (status ${res.status}; reported by OP5-REQUEST)`, res);
  if (!findRecord(after.records, d)) t.notApplicable(`the acceptance record of "${d.institutionDisclosureName}" this run created is not listed (reported by STATE-UD-CREATE)`);
  return after;
}

/**
 * The configured user's records and the ids the user is known by. Where the list is empty, or shows
 * an institutionUserId other than the one sent, the case judges the list that follows the create of
 * the records' life instead, whose record tells which id the target gives this user's records.
 */
async function theUsersRecords(t: CaseContext) {
  const listed = await listUserRecords(t);
  if (listed.records.length > 0 && listed.records.every((r) => typeof r.institutionUserId !== 'string' || userIds(t).has(r.institutionUserId))) return { ...listed, ids: userIds(t) };
  const { res, records } = await listWithARecord(t);
  const { d } = await lifecycleStep(t, 'create');
  return { res, records, ids: userIds(t, findRecord(records, d)) };
}

/** Another consumer: the configured testData.otherInstitutionUserId, else a made-up id nobody uses, named after the run. */
const otherConsumer = (t: CaseContext) => t.config.testData.otherInstitutionUserId ?? `dbsi-${t.settings.runId}-nobody-${t.faker.string.alphanumeric({ length: 8, casing: 'lower' })}`;

export default feature('disclosures', 'listUserDisclosures', [
  {
    title: 'answers a 2xx to a request with the three common headers and InstitutionConsumerId',
    requirements: ['OP4-REQUEST'],
    async run(t) {
      const res = await list(t);
      // A refusal may be the configured user's doing: the control tells where it can (could not test, naming the key).
      const note = is2xx(res) ? undefined : await userListNotServed(t, res);
      t.verify('OP4-REQUEST', withSetupNote(success_status(res), note));
    },
  },
  {
    title: 'answers a JSON object holding the institutionUserDisclosures array',
    requirements: ['CONV-JSON-BODIES', 'OP4-RESPONSE-ENVELOPE'],
    async run(t) {
      const res = await list(t);
      if (!is2xx(res)) {
        await userListNotServed(t, res);
        t.notApplicable(`the list request was not served (status ${res.status}; reported by OP4-REQUEST)`, res);
      }
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
      records.forEach((r, i) => t.verify('RES-USERDISC-STATUS-VALUES', shown_value(r.institutionUserDisclosureStatus, SHOWN.institutionUserDisclosureStatus, `institutionUserDisclosures[${i}].institutionUserDisclosureStatus`, res)));
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
