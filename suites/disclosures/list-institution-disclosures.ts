import { commonHeaders, type Credentials } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import { feature } from '../../harness/case';
import { OPERATIONS } from '../../harness/operations';
import { servedAtNeighbour } from '../_neighbouring-versions';
import { authenticationCases } from './_authentication';
import { carriesUrlData } from './_institution-disclosures';

/**
 * Operation 1: GET /db-disclosures/v1/institution-disclosures. The driver: each case sends the list
 * and holds the answer to the rules it names (harness/rules/exchange-rules.ts, the rules a recorded
 * capture is held to).
 */

const list = (t: CaseContext, credentials: Credentials = 'valid', path?: string) =>
  t.send({
    operation: 'listInstitutionDisclosures',
    headers: commonHeaders(t.faker, t.config, credentials),
    label: path ? `list institution disclosures at ${path}` : 'list institution disclosures',
    ...(path ? { path } : {}),
  });

/** The list's elements, or "not applicable" when an earlier requirement already failed on it. */
async function listedElements(t: CaseContext) {
  const res = await list(t);
  if (res.status < 200 || res.status > 299)
    t.notApplicable(`the list request was not served (status ` + `${res.status}; reported by OP1-REQUEST)`, res);
  const items = (res.json as { institutionDisclosures?: unknown } | undefined)?.institutionDisclosures;
  if (!Array.isArray(items))
    t.notApplicable('the answer has no institutionDisclosures array ' + '(reported by OP1-RESPONSE-ENVELOPE)');
  if (items.length === 0)
    t.notApplicable('the target lists no institution disclosure, so ' + 'there is no element to inspect');
  return { res, items: items as unknown[] };
}

export default feature('disclosures', 'listInstitutionDisclosures', [
  {
    title: 'answers a 2xx to a request with the three common headers',
    requirements: ['OP1-REQUEST'],
    async run(t) {
      const res = await list(t);
      // A 404: served at a neighbouring version, the base URL is right and the 404 is the target's.
      const at = await servedAtNeighbour(t, OPERATIONS.listInstitutionDisclosures.path, res, (p) =>
        list(t, 'valid', p),
      );
      if (at) await t.parameter('served instead at', `{baseUrl}${at.path}`);
      t.judge(res, 'OP1-REQUEST');
    },
  },
  {
    title: 'answers a JSON object holding the institutionDisclosures array',
    requirements: ['CONV-JSON-BODIES', 'CONV-JSON-MEDIA-TYPE', 'OP1-RESPONSE-ENVELOPE'],
    async run(t) {
      const res = await list(t);
      if (res.status < 200 || res.status > 299)
        t.notApplicable(`the list request was not served (status ` + `${res.status}; reported by OP1-REQUEST)`, res);
      t.judge(res, 'CONV-JSON-BODIES', 'CONV-JSON-MEDIA-TYPE', 'OP1-RESPONSE-ENVELOPE');
    },
  },
  {
    title: 'lists disclosures whose members have the documented types',
    requirements: ['RES-DISCLOSURE-FIELD-TYPES'],
    async run(t) {
      const { res } = await listedElements(t);
      t.judge(res, 'RES-DISCLOSURE-FIELD-TYPES');
    },
  },
  {
    title: 'lists disclosures that each carry an id, an institution id and a name',
    requirements: ['RES-DISCLOSURE-OPTIONAL-MEMBERS'],
    async run(t) {
      const { res } = await listedElements(t);
      t.judge(res, 'RES-DISCLOSURE-OPTIONAL-MEMBERS');
    },
  },
  {
    title: 'lists only the data type the spec shows (URL)',
    requirements: ['RES-DISCLOSURE-DATATYPE-VALUES'],
    async run(t) {
      const { res, items } = await listedElements(t);
      const typed = items.filter((i) => (i as Record<string, unknown>)?.institutionDisclosureDataType !== undefined);
      if (typed.length === 0) t.notApplicable('no listed element carries institutionDisclosureDataType');
      t.judge(res, 'RES-DISCLOSURE-DATATYPE-VALUES');
    },
  },
  {
    title: 'lists each disclosure under an institutionDisclosureId of its own',
    requirements: ['RES-DISCLOSURE-ID-UNIQUE'],
    async run(t) {
      const { res, items } = await listedElements(t);
      const ids = items.filter((i) => typeof (i as Record<string, unknown>)?.institutionDisclosureId === 'string');
      if (ids.length < 2) t.notApplicable('fewer than two listed elements carry an institutionDisclosureId');
      t.judge(res, 'RES-DISCLOSURE-ID-UNIQUE');
    },
  },
  {
    title: 'lists disclosure data of data type URL that carries a URL',
    requirements: ['RES-DISCLOSURE-DATA-URL'],
    async run(t) {
      const { res, items } = await listedElements(t);
      if (!items.some(carriesUrlData))
        t.notApplicable('no listed element carries institutionDisclosureData as a string of data type URL');
      t.judge(res, 'RES-DISCLOSURE-DATA-URL');
    },
  },
  ...authenticationCases((t, credentials) => list(t, credentials)),
]);
