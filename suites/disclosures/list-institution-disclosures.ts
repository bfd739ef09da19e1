import { commonHeaders, type Credentials } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import { feature } from '../../harness/case';
import { json_object_body, required_members, schema_conformance, shown_value, success_status } from '../../harness/checks';
import { authenticationCases } from './_authentication';
import { SHOWN } from '../../harness/shown-values';


/** Operation 1: GET /db-disclosures/v1/institution-disclosures. */

const list = (t: CaseContext, credentials: Credentials = 'valid') =>
  t.send({ operation: 'listInstitutionDisclosures', headers: commonHeaders(t.faker, t.config, credentials), label: 'list institution disclosures' });

/** The list's elements, or "not applicable" when an earlier requirement already failed on it. */
async function listedElements(t: CaseContext) {
  const res = await list(t);
  if (res.status < 200 || res.status > 299) t.notApplicable(`the list request was not served (status ${res.status}; reported by OP1-REQUEST)`, res);
  const items = (res.json as { institutionDisclosures?: unknown } | undefined)?.institutionDisclosures;
  if (!Array.isArray(items)) t.notApplicable('the answer has no institutionDisclosures array (reported by OP1-RESPONSE-ENVELOPE)');
  if (items.length === 0) t.notApplicable('the target lists no institution disclosure, so there is no element to inspect');
  return { res, items: items as unknown[] };
}

export default feature('disclosures', 'listInstitutionDisclosures', [
  {
    title: 'answers a 2xx to a request with the three common headers',
    requirements: ['OP1-REQUEST'],
    async run(t) {
      t.verify('OP1-REQUEST', success_status(await list(t)));
    },
  },
  {
    title: 'answers a JSON object holding the institutionDisclosures array',
    requirements: ['CONV-JSON-BODIES', 'OP1-RESPONSE-ENVELOPE'],
    async run(t) {
      const res = await list(t);
      if (res.status < 200 || res.status > 299) t.notApplicable(`the list request was not served (status ${res.status}; reported by OP1-REQUEST)`, res);
      t.verify('CONV-JSON-BODIES', json_object_body(res));
      t.verify('OP1-RESPONSE-ENVELOPE', schema_conformance(res, 'institution-disclosure-list'));
    },
  },
  {
    title: 'lists disclosures whose members have the documented types',
    requirements: ['RES-DISCLOSURE-FIELD-TYPES'],
    async run(t) {
      const { res, items } = await listedElements(t);
      items.forEach((item, i) => t.verify('RES-DISCLOSURE-FIELD-TYPES', schema_conformance(res, 'institution-disclosure', item, `institutionDisclosures[${i}]`)));
    },
  },
  {
    title: 'lists disclosures that each carry an id, an institution id and a name',
    requirements: ['RES-DISCLOSURE-OPTIONAL-MEMBERS'],
    async run(t) {
      const { res, items } = await listedElements(t);
      items.forEach((item, i) => t.verify('RES-DISCLOSURE-OPTIONAL-MEMBERS', required_members(item, ['institutionDisclosureId', 'institutionId', 'institutionDisclosureName'], `institutionDisclosures[${i}]`, res)));
    },
  },
  {
    title: 'lists only the data type the spec shows (URL)',
    requirements: ['RES-DISCLOSURE-DATATYPE-VALUES'],
    async run(t) {
      const { res, items } = await listedElements(t);
      const typed = items.filter((i) => (i as Record<string, unknown>)?.institutionDisclosureDataType !== undefined);
      if (typed.length === 0) t.notApplicable('no listed element carries institutionDisclosureDataType');
      for (const item of typed) t.verify('RES-DISCLOSURE-DATATYPE-VALUES', shown_value((item as Record<string, unknown>).institutionDisclosureDataType, SHOWN.institutionDisclosureDataType, 'institutionDisclosureDataType', res));
    },
  },
  ...authenticationCases((t, credentials) => list(t, credentials)),
]);
