import { commonHeaders } from '../../data-builders/disclosures';
import { feature } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';
import { carriesUrlData, createInstitutionDisclosure, listInstitutionDisclosures } from './_institution-disclosures';
import { authenticationCases } from './_authentication';

/**
 * Operation 2: POST /db-disclosures/v1/institution-disclosures (behind allow.institutionDisclosureWrites).
 * What it creates cannot be deleted through the interface: names carry the run prefix. The driver sends
 * the create and the list that shows it; the rules (harness/rules/institution-disclosures.ts, and
 * STATE-ID-CREATE in sequence-rules.ts) judge them, as they judge a recorded capture.
 */
/** A list that was served with an institutionDisclosures array: one that can show an id in use. */
const isListed = (res: HttpResult) =>
  res.status >= 200 &&
  res.status < 300 &&
  Array.isArray((res.json as { institutionDisclosures?: unknown } | undefined)?.institutionDisclosures);

export default feature('disclosures', 'createInstitutionDisclosure', [
  {
    title:
      'creates a disclosure with status true: a 2xx with the documented ' +
      'members, then listed with the name and status sent',
    requirements: [
      'OP2-REQUEST',
      'CONV-JSON-BODIES',
      'CONV-JSON-MEDIA-TYPE',
      'OP2-RESPONSE',
      'OP2-RESPONSE-REFLECTS-REQUEST',
      'STATE-ID-CREATE',
      'RES-DISCLOSURE-FIELD-TYPES',
      'RES-DISCLOSURE-DATATYPE-VALUES',
      'RES-DISCLOSURE-DATA-URL',
      'RES-DISCLOSURE-ID-UNIQUE',
    ],
    async run(t) {
      // The list before the create (a read, sent as is: a refusal is OP1-REQUEST's verdict, not this case's).
      const before = await t.step('list before the create', () =>
        t.send({
          operation: 'listInstitutionDisclosures',
          headers: commonHeaders(t.faker, t.config),
          label: 'list institution disclosures before the create',
        }),
      );
      const { res } = await t.step('create', () => createInstitutionDisclosure(t, true));
      t.judge(
        res,
        'OP2-REQUEST',
        'CONV-JSON-BODIES',
        'CONV-JSON-MEDIA-TYPE',
        'RES-DISCLOSURE-FIELD-TYPES',
        'OP2-RESPONSE',
        'OP2-RESPONSE-REFLECTS-REQUEST',
      );
      const body = res.json as Record<string, unknown>;
      await t.parameter('institutionDisclosureId', String(body.institutionDisclosureId));
      // The id answered is a new one: not one the list before gave another disclosure (judged before the list after
      // it, which a target that reuses ids may fail for another reason: a concurrent create wrote the same record).
      if (isListed(before) && typeof body.institutionDisclosureId === 'string')
        t.judgeLog([before, res], 'RES-DISCLOSURE-ID-UNIQUE');
      const { res: listed } = await t.step('list', () => listInstitutionDisclosures(t));
      t.judgeLog([res, listed], 'STATE-ID-CREATE');
      // The data type is judged where the answer carries it (the spec shows URL).
      if (body.institutionDisclosureDataType !== undefined) t.judge(res, 'RES-DISCLOSURE-DATATYPE-VALUES');
      // The data is judged where the answer carries it as a string of data type URL (or none given).
      if (carriesUrlData(body)) t.judge(res, 'RES-DISCLOSURE-DATA-URL');
    },
  },
  ...authenticationCases(async (t, credentials) => (await createInstitutionDisclosure(t, false, credentials)).res),
]);
