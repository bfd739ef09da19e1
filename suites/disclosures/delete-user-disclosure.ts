import { deleteUserDisclosureRequest, type Credentials } from '../../data-builders/disclosures';
import { feature, type CaseContext, type CaseDef } from '../../harness/case';
import { is2xx } from './_institution-disclosures';
import { findRecord, FORM_TITLE, sendInForm, type Form } from './_user-records';
import { lifecycleStep, stepBesideOthers, recordAtTheEndOfLife } from './_record-lifecycle';
import { authenticationCases } from './_authentication';
import { sharedRecord } from './_shared-record';
import { unconfiguredRefusal } from './_test-data';

/**
 * Operation 7: DELETE /db-disclosures/v1/institution-user-disclosures, or …/{institutionUserDisclosureId}.
 * The delete with valid credentials (of an ACCEPTED record, a NOT_ACCEPTED one beside it) is a step
 * of the records' life (_record-lifecycle.ts): its answer, the list after it and the records beside
 * it are judged by the three cases of each form. The deletes without valid credentials share a
 * record with the other cases that only read one; the clean-ups handle "already deleted".
 */

const REQUEST_RULE: Record<Form, string> = { collection: 'OP7-REQUEST', 'by-id': 'OP7-REQUEST-BY-ID' };

const statusCase = (form: Form): CaseDef => ({
  title: `answers 204 with no body (${FORM_TITLE[form]})`,
  requirements: [REQUEST_RULE[form], 'OP7-STATUS-204'],
  async run(t) {
    const { res, setupNote } = await lifecycleStep(t, `delete:${form}`);
    unconfiguredRefusal(t, 'delete', res);
    t.withSetupNote(setupNote, () => t.judge(res, REQUEST_RULE[form], 'OP7-STATUS-204'));
  },
});

const stateCase = (form: Form): CaseDef => ({
  title: `removes the record (${FORM_TITLE[form]})`,
  requirements: ['STATE-UD-DELETE'],
  async run(t) {
    const acted = await lifecycleStep(t, `delete:${form}`);
    const { res, before, after } = acted;
    if (!is2xx(res))
      t.notApplicable(`the delete was not served (status ${res.status}; ` + `reported by ${REQUEST_RULE[form]})`, res);
    t.judgeLog([before!.res, res, after.res], 'STATE-UD-DELETE');
  },
});

/** The delete removes the record it names and no other: the other record (NOT_ACCEPTED, so a delete keyed on either
 * status shows) and the records from before the run stay as they were. */
const onlyNamedCase = (form: Form): CaseDef => ({
  title: `leaves the user's other records as they were (${FORM_TITLE[form]})`,
  requirements: ['STATE-UD-DELETE-ONLY-NAMED'],
  async run(t) {
    const acted = await lifecycleStep(t, `delete:${form}`);
    const { d, res, before } = acted;
    if (!is2xx(res))
      t.notApplicable(`the delete was not served (status ${res.status}; ` + `reported by ${REQUEST_RULE[form]})`, res);
    const beside = before!.records.filter((r) => findRecord([r], d) === undefined);
    if (beside.length === 0)
      t.notApplicable(
        'the list before the delete shows no record besides the one it removes: none from before the run, and no ' +
          'second disclosure was free to create one (or creating it was not served)',
      );
    await t.parameter('records beside it before the request', String(beside.length));
    t.judgeLog(await stepBesideOthers(t, acted), 'STATE-UD-DELETE-ONLY-NAMED');
  },
});

/** A delete a conformant target refuses without changing anything: on the life's record after its last step, else on
 * the record the readers share. */
async function unauthenticatedDelete(t: CaseContext, credentials: Exclude<Credentials, 'valid'>, form: Form) {
  const { d, record, write } = (await recordAtTheEndOfLife(t)) ?? (await sharedRecord(t));
  const status =
    typeof record.institutionUserDisclosureStatus === 'string' ? record.institutionUserDisclosureStatus : 'ACCEPTED';
  const req = deleteUserDisclosureRequest(t.faker, t.config, d, status, credentials);
  return write(() =>
    sendInForm(
      t,
      form,
      record,
      { collection: 'deleteUserDisclosure', byId: 'deleteUserDisclosureById' },
      req,
      'delete',
    ),
  );
}

export default feature('disclosures', 'deleteUserDisclosure', [
  statusCase('collection'),
  statusCase('by-id'),
  stateCase('collection'),
  stateCase('by-id'),
  onlyNamedCase('collection'),
  onlyNamedCase('by-id'),
  ...authenticationCases((t, credentials) => unauthenticatedDelete(t, credentials, 'collection')),
  ...authenticationCases((t, credentials) => unauthenticatedDelete(t, credentials, 'by-id'), FORM_TITLE['by-id']),
]);
