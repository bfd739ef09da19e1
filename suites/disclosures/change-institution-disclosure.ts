import {
  changeInstitutionDisclosureRequest,
  disclosureName,
  disclosureNamePrefix,
  type Credentials,
} from '../../data-builders/disclosures';
import { feature, type CaseContext } from '../../harness/case';
import {
  carriesUrlData,
  createInstitutionDisclosure,
  findDisclosure,
  is2xx,
  listInstitutionDisclosures,
} from './_institution-disclosures';
import { authenticationCases } from './_authentication';

/** Operation 3: PUT /db-disclosures/v1/institution-disclosures/{institutionDisclosureId} (behind
 * allow.institutionDisclosureWrites). */

type Listed = Awaited<ReturnType<typeof listInstitutionDisclosures>>;

/** The disclosure the state case creates (status false), the list after it and the id it was given. */
async function createdAndListed(t: CaseContext) {
  const institutionId = t.config.testData.institutionId;
  const created = await t.step('create with status false', () => createInstitutionDisclosure(t, false));
  if (!is2xx(created.res))
    t.notApplicable(
      `creating the disclosure was not served (status ` + `${created.res.status}; reported by OP2-REQUEST)`,
      created.res,
    );
  const responseId = (created.res.json as Record<string, unknown> | undefined)?.institutionDisclosureId;
  const before = await t.step('list after create', () => listInstitutionDisclosures(t));
  t.judgeLog([created.res, before.res], 'STATE-ID-CREATE');
  const found = findDisclosure(
    before.items,
    typeof responseId === 'string' ? responseId : undefined,
    created.name,
    institutionId,
  );
  const id = typeof responseId === 'string' ? responseId : found?.institutionDisclosureId;
  if (typeof id !== 'string')
    return t.notApplicable(
      'neither the create response nor the list gives the created disclosure an ' +
        'institutionDisclosureId (reported by OP2-RESPONSE / RES-DISCLOSURE-OPTIONAL-MEMBERS)',
    );
  return { created, before, id };
}

/**
 * The other disclosures the lists show stay as they were (those the run's other tests write aside: their writes
 * are not in this log). Judged where both lists show another disclosure by its id (a list may leave ids out: OP1's
 * rules say so).
 */
function othersAsTheyWere(t: CaseContext, id: string, before: Listed, res: Listed['res'], after: Listed) {
  const prefix = disclosureNamePrefix(t.settings.runId);
  const other = (i: Record<string, unknown>) =>
    typeof i.institutionDisclosureId === 'string' &&
    i.institutionDisclosureId !== id &&
    !String(i.institutionDisclosureName).startsWith(prefix);
  if (before.items.some(other) && after.items.some(other))
    t.judgeLogKnowing({ runNamePrefix: prefix }, [before.res, res, after.res], 'STATE-ID-CHANGE-ONLY-NAMED');
}

/**
 * An unauthenticated change aimed at a listed disclosure, carrying exactly the values it already has:
 * a faulty target that serves it changes nothing.
 */
async function unauthenticatedChange(t: CaseContext, credentials: Credentials) {
  const { items } = await listInstitutionDisclosures(t);
  // Not one this run created: the state case renames those while this case runs.
  const d = items.find(
    (i) =>
      typeof i.institutionDisclosureId === 'string' &&
      typeof i.institutionId === 'string' &&
      typeof i.institutionDisclosureName === 'string' &&
      typeof i.institutionDisclosureStatus === 'boolean' &&
      !i.institutionDisclosureName.startsWith(`dbsi-${t.settings.runId}`),
  );
  if (!d)
    t.notApplicable(
      'no listed institution disclosure (other than those this run created) carries id, institutionId, name ' +
        'and status, so no change can be sent that would leave it as it is if a faulty target served it',
    );
  const target = {
    institutionDisclosureId: d.institutionDisclosureId as string,
    institutionId: d.institutionId as string,
    institutionDisclosureName: d.institutionDisclosureName as string,
    institutionDisclosureStatus: d.institutionDisclosureStatus as boolean,
  };
  await t.parameter('institutionDisclosureId', target.institutionDisclosureId);
  return t.send({
    operation: 'changeInstitutionDisclosure',
    pathParams: { institutionDisclosureId: target.institutionDisclosureId },
    ...changeInstitutionDisclosureRequest(t.faker, t.config, target, credentials),
    label: 'change institution disclosure (same values)',
  });
}

export default feature('disclosures', 'changeInstitutionDisclosure', [
  {
    title:
      'changes a disclosure created with status false: the response and the ' +
      'list show the new name and status true, same id',
    requirements: [
      'STATE-ID-CREATE',
      'OP3-REQUEST',
      'CONV-JSON-BODIES',
      'CONV-JSON-MEDIA-TYPE',
      'OP3-RESPONSE',
      'OP3-RESPONSE-REFLECTS-REQUEST',
      'STATE-ID-CHANGE',
      'STATE-ID-CHANGE-ONLY-NAMED',
      'RES-DISCLOSURE-FIELD-TYPES',
      'RES-DISCLOSURE-DATATYPE-VALUES',
      'RES-DISCLOSURE-DATA-URL',
    ],
    async run(t) {
      const institutionId = t.config.testData.institutionId;
      const { created, before, id } = await createdAndListed(t);
      await t.parameter('institutionDisclosureId', id);

      const change = {
        institutionDisclosureId: id,
        institutionId,
        institutionDisclosureName: disclosureName(t.faker, t.settings.runId),
        institutionDisclosureStatus: true,
      };
      await t.parameter('new institutionDisclosureName', change.institutionDisclosureName);
      const res = await t.step('change to a new name and status true', () =>
        t.send({
          operation: 'changeInstitutionDisclosure',
          pathParams: { institutionDisclosureId: id },
          ...changeInstitutionDisclosureRequest(t.faker, t.config, change),
          label: 'change institution disclosure',
        }),
      );
      const answered = [
        'OP3-REQUEST',
        'CONV-JSON-BODIES',
        'CONV-JSON-MEDIA-TYPE',
        'RES-DISCLOSURE-FIELD-TYPES',
        'OP3-RESPONSE',
        'OP3-RESPONSE-REFLECTS-REQUEST',
      ] as const;
      t.judge(res, ...answered);
      // The data type is judged where the answer carries it (the spec shows URL).
      const dataType = (res.json as Record<string, unknown> | undefined)?.institutionDisclosureDataType;
      if (dataType !== undefined) t.judge(res, 'RES-DISCLOSURE-DATATYPE-VALUES');
      if (carriesUrlData(res.json)) t.judge(res, 'RES-DISCLOSURE-DATA-URL');
      // The change's answer (same id, the name sent) and the list after it (by id; by the new name where
      // the list gives no ids): STATE-ID-CHANGE, a state rule of sequence-rules.ts.
      const after = await t.step('list after change', () => listInstitutionDisclosures(t));
      t.judgeLog([created.res, before.res, res, after.res], 'STATE-ID-CHANGE');
      othersAsTheyWere(t, id, before, res, after);
      // The lists read back what the run wrote: held to the list's rules as the first list is.
      t.judge(after.res, 'RES-DISCLOSURE-FIELD-TYPES', 'RES-DISCLOSURE-DATA-URL');
      // Then back to status false, as it was created: the other value the spec shows for
      // InstitutionDisclosureStatus ("true or false"), sent as a change too. No list follows (one request more).
      const back = await t.step('change back to status false', () =>
        t.send({
          operation: 'changeInstitutionDisclosure',
          pathParams: { institutionDisclosureId: id },
          ...changeInstitutionDisclosureRequest(t.faker, t.config, { ...change, institutionDisclosureStatus: false }),
          label: 'change institution disclosure back to status false',
        }),
      );
      t.judge(back, ...answered);
    },
  },
  ...authenticationCases((t, credentials) => unauthenticatedChange(t, credentials)),
]);
