import { deleteUserDisclosureRequest, type Credentials } from '../../data-builders/disclosures';
import { feature, type CaseContext, type CaseDef } from '../../harness/case';
import { absent, empty_body, records_unchanged, status_code_conformance, success_status } from '../../harness/checks';
import { is2xx } from './_institution-disclosures';
import { existingRecord, findRecord, FORM_TITLE, listUserRecords, sendInForm, type Form } from './_user-records';
import { documentedMembers, recordAmongOthers } from './_other-records';
import { authenticationCases } from './_authentication';
import { sharedRecord } from './_shared-record';

/**
 * Operation 7: DELETE /db-disclosures/v1/institution-user-disclosures, or …/{institutionUserDisclosureId}.
 * Each case creates its own record and deletes it; the clean-up handles "already deleted".
 */

const REQUEST_RULE: Record<Form, string> = { collection: 'OP7-REQUEST', 'by-id': 'OP7-REQUEST-BY-ID' };

async function deleteRecord(t: CaseContext, form: Form, credentials: Credentials = 'valid') {
  // A request without valid credentials changes nothing on a conformant target: it shares a record with the other readers.
  const { d, record } = credentials === 'valid' ? await existingRecord(t) : await sharedRecord(t);
  const status = typeof record.institutionUserDisclosureStatus === 'string' ? record.institutionUserDisclosureStatus : 'ACCEPTED';
  const req = deleteUserDisclosureRequest(t.faker, t.config, d, status, credentials);
  return { d, res: await sendInForm(t, form, record, { collection: 'deleteUserDisclosure', byId: 'deleteUserDisclosureById' }, req, 'delete') };
}

const statusCase = (form: Form): CaseDef => ({
  title: `answers 204 with no body (${FORM_TITLE[form]})`,
  requirements: [REQUEST_RULE[form], 'OP7-STATUS-204'],
  async run(t) {
    const { res } = await deleteRecord(t, form);
    t.verify(REQUEST_RULE[form], success_status(res));
    t.verify('OP7-STATUS-204', status_code_conformance(res, 204));
    t.verify('OP7-STATUS-204', empty_body(res));
  },
});

const stateCase = (form: Form): CaseDef => ({
  title: `removes the record (${FORM_TITLE[form]})`,
  requirements: ['STATE-UD-DELETE'],
  async run(t) {
    const { d, res } = await deleteRecord(t, form);
    if (!is2xx(res)) t.notApplicable(`the delete was not served (status ${res.status}; reported by ${REQUEST_RULE[form]})`);
    const { res: listed, records } = await t.step('list', () => listUserRecords(t));
    t.verify('STATE-UD-DELETE', absent(findRecord(records, d), `the acceptance record of "${d.institutionDisclosureName}"`, listed));
  },
});

/** The delete removes the record it names and no other: a second record and the records from before the run stay as they were. */
const onlyNamedCase = (form: Form): CaseDef => ({
  title: `leaves the user's other records as they were (${FORM_TITLE[form]})`,
  requirements: ['STATE-UD-DELETE-ONLY-NAMED'],
  async run(t) {
    // The second record has the other status, so a delete keyed on either status shows.
    const { d, record, keep } = await recordAmongOthers(t, form, 'NOT_ACCEPTED');
    const status = typeof record.institutionUserDisclosureStatus === 'string' ? record.institutionUserDisclosureStatus : 'ACCEPTED';
    const req = deleteUserDisclosureRequest(t.faker, t.config, d, status);
    const res = await sendInForm(t, form, record, { collection: 'deleteUserDisclosure', byId: 'deleteUserDisclosureById' }, req, 'delete');
    if (!is2xx(res)) t.notApplicable(`the delete was not served (status ${res.status}; reported by ${REQUEST_RULE[form]})`);
    const { res: listed, records } = await t.step('list', () => listUserRecords(t));
    t.verify('STATE-UD-DELETE-ONLY-NAMED', records_unchanged(keep, records.map(documentedMembers), "the user's other records", listed));
  },
});

export default feature('disclosures', 'deleteUserDisclosure', [
  statusCase('collection'),
  statusCase('by-id'),
  stateCase('collection'),
  stateCase('by-id'),
  onlyNamedCase('collection'),
  onlyNamedCase('by-id'),
  ...authenticationCases(async (t, credentials) => (await deleteRecord(t, 'collection', credentials)).res),
]);
