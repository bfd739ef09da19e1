import { listUserDisclosuresRequest, type Credentials } from '../../data-builders/disclosures';
import { feature, type CaseContext } from '../../harness/case';
import { json_object_body, required_members, schema_conformance, shown_value, success_status } from '../../harness/checks';
import { is2xx } from './_institution-disclosures';
import { existingRecord, listUserRecords } from './_user-records';
import { authenticationCases } from './_authentication';

/** Operation 4: GET /db-disclosures/v1/institution-user-disclosures?InstitutionConsumerId=… */

const list = (t: CaseContext, credentials: Credentials = 'valid') =>
  t.send({ operation: 'listUserDisclosures', ...listUserDisclosuresRequest(t.faker, t.config, credentials), label: 'list user disclosures' });

/** The list with at least one element: the case creates a record of its own (deleted at the end). */
async function listWithARecord(t: CaseContext) {
  await existingRecord(t);
  return t.step('list', () => listUserRecords(t));
}

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
  ...authenticationCases((t, credentials) => list(t, credentials)),
]);
