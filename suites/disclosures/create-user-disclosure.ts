import { feature } from '../../harness/case';
import { is2xx } from './_institution-disclosures';
import { createRecord, freshDisclosure } from './_user-records';
import { afterTheLifeTookItsDisclosures, disclosureTheLifeFrees, lifecycleStep } from './_record-lifecycle';
import { authenticationCases } from './_authentication';
import { createRefusedNote, notListedNote } from './_test-data';

/**
 * Operation 5: POST /db-disclosures/v1/institution-user-disclosures. The create with valid
 * credentials is the first step of the records' life (_record-lifecycle.ts); the refused ones each
 * take a disclosure of their own, where a faulty target's record would be deleted at the end. The
 * driver sends; the rules (harness/rules/user-disclosures.ts per exchange, sequence-rules.ts across
 * the step's log) judge, as they judge a capture.
 */
export default feature('disclosures', 'createUserDisclosure', [
  {
    title: 'answers 204 with no body',
    requirements: ['OP5-REQUEST', 'OP5-STATUS-204'],
    async run(t) {
      const { d, res } = await lifecycleStep(t, 'create');
      t.withSetupNote(createRefusedNote(t, d, res), () => t.judge(res, 'OP5-REQUEST', 'OP5-STATUS-204'));
    },
  },
  {
    title: 'creates a record that is listed with the status sent (ACCEPTED)',
    requirements: ['STATE-UD-CREATE'],
    async run(t) {
      const { res, after } = await lifecycleStep(t, 'create');
      if (!is2xx(res))
        t.notApplicable(`creating the record was not served (status ` + `${res.status}; reported by OP5-REQUEST)`, res);
      t.withSetupNote(notListedNote(t), () => t.judgeLog([res, after.res], 'STATE-UD-CREATE'));
    },
  },
  ...authenticationCases(async (t, credentials) => {
    // Where every disclosure is held (by the records' life), the one the life frees first.
    await afterTheLifeTookItsDisclosures(t);
    return createRecord(
      t,
      await freshDisclosure(t, { whenAllBusy: () => disclosureTheLifeFrees(t) }),
      `create the user disclosure ` + `${credentials === 'none' ? 'without credentials' : 'with an invalid token'}`,
      credentials,
    );
  }),
]);
