import { listUserDisclosuresRequest, type Credentials } from '../../data-builders/disclosures';
import { feature, type CaseContext } from '../../harness/case';
import { is2xx } from './_institution-disclosures';
import type { HttpResult } from '../../harness/http/client';
import { findRecord, listUserRecords, type UserRecord } from './_user-records';
import { lifecycleStep } from './_record-lifecycle';
import { authenticationCases } from './_authentication';
import { userListNotServed } from './_test-data';

/**
 * Operation 4: GET /db-disclosures/v1/institution-user-disclosures?InstitutionConsumerId=… The driver
 * sends and decides what a case needs (a list with a record); the rules judge (harness/rules/
 * user-disclosures.ts per exchange, sequence-rules.ts for the list of another consumer).
 */

type Listed = { res: HttpResult; records: UserRecord[] };

const list = (t: CaseContext, credentials: Credentials = 'valid') =>
  t.send({
    operation: 'listUserDisclosures',
    ...listUserDisclosuresRequest(t.faker, t.config, credentials),
    label: 'list user disclosures',
  });

/**
 * The list with at least one element: the list that follows the create of the records' life
 * (_record-lifecycle.ts), which shows the record it created, judged here too (no request of its own);
 * "not applicable" where the life could not create one (reported by the rules of operation 5).
 */
async function listWithARecord(t: CaseContext) {
  const { d, res, after } = await lifecycleStep(t, 'create');
  if (!is2xx(res))
    t.notApplicable(
      `creating an acceptance record was not served (status ` + `${res.status}; reported by OP5-REQUEST)`,
      res,
    );
  if (!findRecord(after.records, d))
    t.notApplicable(
      `the acceptance record of "${d.institutionDisclosureName}" this run ` +
        `created is not listed (reported by STATE-UD-CREATE)`,
    );
  return { ...after, created: res };
}

/**
 * A list of the configured user's records. Where the list is empty, or shows an institutionUserId other
 * than the one sent, the case judges the list that follows the create of the records' life instead,
 * which shows a record this run created for the user.
 */
async function theUsersRecords(t: CaseContext): Promise<Listed & { created?: HttpResult }> {
  const listed = await listUserRecords(t);
  const theUsers = (id: unknown) => typeof id !== 'string' || id === t.config.testData.institutionUserId;
  if (listed.records.length > 0 && listed.records.every((r) => theUsers(r.institutionUserId))) return listed;
  return listWithARecord(t);
}

/** Another consumer: the configured testData.otherInstitutionUserId, else a made-up id nobody uses, named after the
 * run. */
const otherConsumer = (t: CaseContext) =>
  t.config.testData.otherInstitutionUserId ??
  `dbsi-${t.settings.runId}-nobody-${t.faker.string.alphanumeric({ length: 8, casing: 'lower' })}`;

export default feature('disclosures', 'listUserDisclosures', [
  {
    title: 'answers a 2xx to a request with the three common headers and InstitutionConsumerId',
    requirements: ['OP4-REQUEST'],
    async run(t) {
      const res = await list(t);
      // A refusal may be the configured user's doing: the control tells where it can (could not test, naming the key).
      const note = is2xx(res) ? undefined : await userListNotServed(t, res);
      t.withSetupNote(note, () => t.judge(res, 'OP4-REQUEST'));
    },
  },
  {
    title: 'answers a JSON object holding the institutionUserDisclosures array',
    requirements: ['CONV-JSON-BODIES', 'CONV-JSON-MEDIA-TYPE', 'OP4-RESPONSE-ENVELOPE'],
    async run(t) {
      const res = await list(t);
      if (!is2xx(res)) {
        await userListNotServed(t, res);
        t.notApplicable(`the list request was not served (status ${res.status}; reported by OP4-REQUEST)`, res);
      }
      t.judge(res, 'CONV-JSON-BODIES', 'CONV-JSON-MEDIA-TYPE', 'OP4-RESPONSE-ENVELOPE');
    },
  },
  {
    title:
      'lists records that each carry institutionId, institutionUserId, ' +
      'institutionUserDisclosureStatus and institutionDisclosureName',
    requirements: ['OP4-RESPONSE-MEMBERS'],
    async run(t) {
      t.judge((await listWithARecord(t)).res, 'OP4-RESPONSE-MEMBERS');
    },
  },
  {
    title: 'lists records whose members have the documented types',
    requirements: ['RES-USERDISC-FIELD-TYPES'],
    async run(t) {
      t.judge((await listWithARecord(t)).res, 'RES-USERDISC-FIELD-TYPES');
    },
  },
  {
    title: 'lists only the statuses the spec shows (ACCEPTED, NOT_ACCEPTED)',
    requirements: ['RES-USERDISC-STATUS-VALUES'],
    async run(t) {
      const { res, records } = await listWithARecord(t);
      if (records.every((r) => r.institutionUserDisclosureStatus === undefined))
        t.notApplicable('no listed record carries institutionUserDisclosureStatus (reported by OP4-RESPONSE-MEMBERS)');
      t.judge(res, 'RES-USERDISC-STATUS-VALUES');
    },
  },
  {
    title: 'lists only records of the user named by InstitutionConsumerId',
    requirements: ['OP4-ONLY-THE-USERS-RECORDS'],
    async run(t) {
      const { res, records, created } = await theUsersRecords(t);
      // A target that knows the user by an id of its own: the record this run created shows it (a state rule).
      const ownIds = created && !records.some((r) => r.institutionUserId === t.config.testData.institutionUserId);
      if (ownIds) t.judgeLog([created, res], 'OP4-ONLY-THE-USERS-RECORDS');
      else t.judge(res, 'OP4-ONLY-THE-USERS-RECORDS');
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
      const res = await t.step('list for another consumer', () =>
        t.send({
          operation: 'listUserDisclosures',
          ...req,
          query: { ...req.query, InstitutionConsumerId: other },
          label: 'list user disclosures of another consumer',
        }),
      );
      t.judgeLog([mine.res, res], 'OP4-OTHER-CONSUMER');
    },
  },
  ...authenticationCases((t, credentials) => list(t, credentials)),
]);
