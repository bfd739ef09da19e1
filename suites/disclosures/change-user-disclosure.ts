import { changeUserDisclosureRequest, type Credentials } from '../../data-builders/disclosures';
import { feature, type CaseContext, type CaseDef } from '../../harness/case';
import { empty_body, present, records_unchanged, status_code_conformance, success_status, value_equals } from '../../harness/checks';
import { is2xx } from './_institution-disclosures';
import { existingRecord, findRecord, FORM_TITLE, listUserRecords, sendInForm, type Form } from './_user-records';
import { documentedMembers, recordAmongOthers } from './_other-records';
import { authenticationCases } from './_authentication';
import { sharedRecord } from './_shared-record';

/**
 * Operation 6: PUT /db-disclosures/v1/institution-user-disclosures, or …/{institutionUserDisclosureId}.
 * Each case creates its own record (deleted at the end) and changes it to NOT_ACCEPTED.
 */

const REQUEST_RULE: Record<Form, string> = { collection: 'OP6-REQUEST', 'by-id': 'OP6-REQUEST-BY-ID' };

async function changeRecord(t: CaseContext, form: Form, credentials: Credentials = 'valid') {
  // A request without valid credentials changes nothing on a conformant target: it shares a record with the other readers.
  const { d, record } = credentials === 'valid' ? await existingRecord(t) : await sharedRecord(t);
  const req = changeUserDisclosureRequest(t.faker, t.config, d, 'NOT_ACCEPTED', credentials);
  return { d, res: await sendInForm(t, form, record, { collection: 'changeUserDisclosure', byId: 'changeUserDisclosureById' }, req, 'change') };
}

const statusCase = (form: Form): CaseDef => ({
  title: `answers 204 with no body (${FORM_TITLE[form]})`,
  requirements: [REQUEST_RULE[form], 'OP6-STATUS-204'],
  async run(t) {
    const { res } = await changeRecord(t, form);
    t.verify(REQUEST_RULE[form], success_status(res));
    t.verify('OP6-STATUS-204', status_code_conformance(res, 204));
    t.verify('OP6-STATUS-204', empty_body(res));
  },
});

const stateCase = (form: Form): CaseDef => ({
  title: `changes the record's status to the one sent, NOT_ACCEPTED (${FORM_TITLE[form]})`,
  requirements: ['STATE-UD-CHANGE'],
  async run(t) {
    const { d, res } = await changeRecord(t, form);
    if (!is2xx(res)) t.notApplicable(`the change was not served (status ${res.status}; reported by ${REQUEST_RULE[form]})`);
    const { res: listed, records } = await t.step('list', () => listUserRecords(t));
    const record = findRecord(records, d);
    t.verify('STATE-UD-CHANGE', present(record, `the acceptance record of "${d.institutionDisclosureName}"`, listed));
    t.verify('STATE-UD-CHANGE', value_equals(record!.institutionUserDisclosureStatus, 'NOT_ACCEPTED', 'its institutionUserDisclosureStatus', listed));
  },
});

/** The change acts on the record it names and on no other: a second record and the records from before the run stay as they were. */
const onlyNamedCase = (form: Form): CaseDef => ({
  title: `leaves the user's other records as they were (${FORM_TITLE[form]})`,
  requirements: ['STATE-UD-CHANGE-ONLY-NAMED'],
  async run(t) {
    // The second record keeps the status the change does not send, so a change applied to it shows.
    const { d, record, keep } = await recordAmongOthers(t, form, 'ACCEPTED');
    const req = changeUserDisclosureRequest(t.faker, t.config, d, 'NOT_ACCEPTED');
    const res = await sendInForm(t, form, record, { collection: 'changeUserDisclosure', byId: 'changeUserDisclosureById' }, req, 'change');
    if (!is2xx(res)) t.notApplicable(`the change was not served (status ${res.status}; reported by ${REQUEST_RULE[form]})`);
    const { res: listed, records } = await t.step('list', () => listUserRecords(t));
    t.verify('STATE-UD-CHANGE-ONLY-NAMED', records_unchanged(keep, records.map(documentedMembers), "the user's other records", listed));
  },
});

export default feature('disclosures', 'changeUserDisclosure', [
  statusCase('collection'),
  statusCase('by-id'),
  stateCase('collection'),
  stateCase('by-id'),
  onlyNamedCase('collection'),
  onlyNamedCase('by-id'),
  ...authenticationCases(async (t, credentials) => (await changeRecord(t, 'collection', credentials)).res),
]);
