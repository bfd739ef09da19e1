import { changeUserDisclosureRequest, type Credentials } from '../../data-builders/disclosures';
import { feature, type CaseContext, type CaseDef } from '../../harness/case';
import { showsOtherStatuses } from '../../harness/state/user-disclosures';
import { is2xx } from './_institution-disclosures';
import { findRecord, FORM_TITLE, sendInForm, type Form } from './_user-records';
import { lifecycleStep, stepBesideOthers, recordAtTheEndOfLife } from './_record-lifecycle';
import { authenticationCases } from './_authentication';
import { sharedRecord } from './_shared-record';
import { unconfiguredRefusal } from './_test-data';

/**
 * Operation 6: PUT /db-disclosures/v1/institution-user-disclosures, or …/{institutionUserDisclosureId}.
 * The change with valid credentials (an ACCEPTED record to NOT_ACCEPTED, another ACCEPTED record
 * beside it) is a step of the records' life (_record-lifecycle.ts): its answer, the list after it and
 * the records beside it are judged by the three cases of each form. The changes without valid
 * credentials share a record with the other cases that only read one.
 */

const REQUEST_RULE: Record<Form, string> = { collection: 'OP6-REQUEST', 'by-id': 'OP6-REQUEST-BY-ID' };

const statusCase = (form: Form): CaseDef => ({
  title: `answers 204 with no body (${FORM_TITLE[form]})`,
  requirements: [REQUEST_RULE[form], 'OP6-STATUS-204'],
  async run(t) {
    const { res, setupNote } = await lifecycleStep(t, `change:${form}`);
    unconfiguredRefusal(t, 'change', res);
    t.withSetupNote(setupNote, () => t.judge(res, REQUEST_RULE[form], 'OP6-STATUS-204'));
  },
});

const stateCase = (form: Form): CaseDef => ({
  title: `changes the record's status to the one sent, NOT_ACCEPTED (${FORM_TITLE[form]})`,
  requirements: ['STATE-UD-CHANGE'],
  async run(t) {
    const acted = await lifecycleStep(t, `change:${form}`);
    const { d, res, before, after } = acted;
    if (!is2xx(res))
      t.notApplicable(`the change was not served (status ${res.status}; ` + `reported by ${REQUEST_RULE[form]})`, res);
    // "4. List the disclosures accepted by a user": a target whose lists show ACCEPTED records only has nothing to
    // show of a record changed to NOT_ACCEPTED (the state rule judges it once a list shows another status).
    const lists = [...(before?.records ?? []), ...after.records];
    if (!findRecord(after.records, d) && !showsOtherStatuses(lists))
      t.notApplicable(
        'the lists of the user show ACCEPTED records only: a record changed to NOT_ACCEPTED is not listed',
      );
    t.judgeLog([before!.res, res, after.res], 'STATE-UD-CHANGE');
  },
});

/** The change acts on the record it names and on no other: the second record (ACCEPTED, so a change applied to it
 * shows) and the records from before the run stay as they were. */
const onlyNamedCase = (form: Form): CaseDef => ({
  title: `leaves the user's other records as they were (${FORM_TITLE[form]})`,
  requirements: ['STATE-UD-CHANGE-ONLY-NAMED'],
  async run(t) {
    const acted = await lifecycleStep(t, `change:${form}`);
    const { d, res, before } = acted;
    if (!is2xx(res))
      t.notApplicable(`the change was not served (status ${res.status}; ` + `reported by ${REQUEST_RULE[form]})`, res);
    const beside = before!.records.filter((r) => findRecord([r], d) === undefined);
    if (beside.length === 0)
      t.notApplicable(
        'the list before the change shows no record besides the one it acts on: none from before the run, and no ' +
          'second disclosure was free to create one (or creating it was not served)',
      );
    await t.parameter('records beside it before the request', String(beside.length));
    t.judgeLog(await stepBesideOthers(t, acted), 'STATE-UD-CHANGE-ONLY-NAMED');
  },
});

/** A change a conformant target refuses without changing anything: on the life's record after its last step, else on
 * the record the readers share. */
async function unauthenticatedChange(t: CaseContext, credentials: Exclude<Credentials, 'valid'>, form: Form) {
  const { d, record, write } = (await recordAtTheEndOfLife(t)) ?? (await sharedRecord(t));
  const req = changeUserDisclosureRequest(t.faker, t.config, d, 'NOT_ACCEPTED', credentials);
  return write(() =>
    sendInForm(
      t,
      form,
      record,
      { collection: 'changeUserDisclosure', byId: 'changeUserDisclosureById' },
      req,
      'change',
    ),
  );
}

export default feature('disclosures', 'changeUserDisclosure', [
  statusCase('collection'),
  statusCase('by-id'),
  stateCase('collection'),
  stateCase('by-id'),
  onlyNamedCase('collection'),
  onlyNamedCase('by-id'),
  ...authenticationCases((t, credentials) => unauthenticatedChange(t, credentials, 'collection')),
  ...authenticationCases((t, credentials) => unauthenticatedChange(t, credentials, 'by-id'), FORM_TITLE['by-id']),
]);
