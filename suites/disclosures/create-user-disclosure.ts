import { feature } from '../../harness/case';
import { empty_body, present, status_code_conformance, success_status, value_equals } from '../../harness/checks';
import { is2xx } from './_institution-disclosures';
import { createRecord, findRecord, freshDisclosure } from './_user-records';
import { afterTheLifeTookItsDisclosures, disclosureTheLifeFrees, lifecycleStep } from './_record-lifecycle';
import { authenticationCases } from './_authentication';
import { createRefusedNote, notListedNote, withSetupNote } from './_test-data';

/**
 * Operation 5: POST /db-disclosures/v1/institution-user-disclosures. The create with valid
 * credentials is the first step of the records' life (_record-lifecycle.ts); the refused ones each
 * take a disclosure of their own, where a faulty target's record would be deleted at the end.
 */
export default feature('disclosures', 'createUserDisclosure', [
  {
    title: 'answers 204 with no body',
    requirements: ['OP5-REQUEST', 'OP5-STATUS-204'],
    async run(t) {
      const { d, res } = await lifecycleStep(t, 'create');
      t.verify('OP5-REQUEST', withSetupNote(success_status(res), createRefusedNote(t, d, res)));
      t.verify('OP5-STATUS-204', status_code_conformance(res, 204));
      t.verify('OP5-STATUS-204', empty_body(res));
    },
  },
  {
    title: 'creates a record that is listed with the status sent (ACCEPTED)',
    requirements: ['STATE-UD-CREATE'],
    async run(t) {
      const { d, res, after } = await lifecycleStep(t, 'create');
      if (!is2xx(res)) t.notApplicable(`creating the record was not served (status ${res.status}; reported by OP5-REQUEST)`, res);
      const { res: listed, records } = after;
      const record = findRecord(records, d);
      const shown = present(record, `the acceptance record of "${d.institutionDisclosureName}"`, listed);
      t.verify('STATE-UD-CREATE', withSetupNote(shown, notListedNote(t)));
      t.verify('STATE-UD-CREATE', value_equals(record!.institutionUserDisclosureStatus, 'ACCEPTED', 'its institutionUserDisclosureStatus', listed));
    },
  },
  ...authenticationCases(async (t, credentials) => {
    // Where every disclosure is held (by the records' life), the one the life frees first.
    await afterTheLifeTookItsDisclosures(t);
    return createRecord(t, await freshDisclosure(t, { whenAllBusy: () => disclosureTheLifeFrees(t) }), `create the user disclosure ${credentials === 'none' ? 'without credentials' : 'with an invalid token'}`, credentials);
  }),
]);
