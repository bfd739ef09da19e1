import {
  carries_url,
  cutShort,
  name_kept,
  json_object_body,
  reflects_request,
  required_members,
  schema_conformance,
  shown_value,
  value_equals,
  unique_ids,
  type CheckVerdict,
} from '../checks';
import { validator } from '../schemas';
import { SHOWN } from '../shown-values';
import { header, type Seen, type Verifier, type OperationRules } from './exchange';
import { disclosureAuthentication, served } from './disclosures';
import { is2xx, isObject, requestJson, sentOnce } from './request';

/** The rules of the institution disclosure operations (1–3), per exchange. */

export function listInstitutionDisclosures(s: Seen, v: Verifier): void {
  disclosureAuthentication(s, v);
  served(s, v, 'OP1-REQUEST');
  if (!is2xx(s.x.status)) return;
  v.verify('CONV-JSON-BODIES', json_object_body(s.res));
  if (!v.verify('OP1-RESPONSE-ENVELOPE', schema_conformance(s.res, 'institution-disclosure-list'))) return;
  const items = (s.res.json as { institutionDisclosures?: unknown[] } | undefined)?.institutionDisclosures ?? [];
  items.forEach((item, i) =>
    v.verify(
      'RES-DISCLOSURE-FIELD-TYPES',
      schema_conformance(s.res, 'institution-disclosure', item, `institutionDisclosures[${i}]`),
    ),
  );
  items.forEach((item, i) =>
    v.verify(
      'RES-DISCLOSURE-OPTIONAL-MEMBERS',
      required_members(
        item,
        ['institutionDisclosureId', 'institutionId', 'institutionDisclosureName'],
        `institutionDisclosures[${i}]`,
        s.res,
      ),
    ),
  );
  for (const item of items) {
    const t = isObject(item) ? item.institutionDisclosureDataType : undefined;
    if (t !== undefined)
      v.verify(
        'RES-DISCLOSURE-DATATYPE-VALUES',
        shown_value(t, SHOWN.institutionDisclosureDataType, 'institutionDisclosureDataType', s.res),
      );
  }
  v.verify('RES-DISCLOSURE-ID-UNIQUE', unique_ids(items, 'institutionDisclosureId', 'institutionDisclosures', s.res));
  items.forEach((item, i) => disclosureData(item, `institutionDisclosures[${i}]`, s, v));
}

/**
 * RES-DISCLOSURE-DATA-URL: institutionDisclosureData "carries a URL", judged where it is a string and its
 * data type is URL or not given ("Data types other than URL: not shown").
 */
export function disclosureData(item: unknown, where: string, s: Seen, v: Verifier): void {
  if (!isObject(item) || typeof item.institutionDisclosureData !== 'string') return;
  const type = item.institutionDisclosureDataType;
  if (type !== undefined && type !== 'URL') return;
  v.verify(
    'RES-DISCLOSURE-DATA-URL',
    carries_url(item.institutionDisclosureData, `${where}.institutionDisclosureData`, s.res),
  );
}

const what = (requestRule: string) => (requestRule === 'OP3-REQUEST' ? 'change' : 'create');

/** The members a response schema lists as required (the spec's "Response: object with …"). */
function listedMembers(schema: string): string[] {
  return (validator(schema).schema as { required?: string[] }).required ?? [];
}

export function writeInstitutionDisclosure(requestRule: string, responseRule: string, schema: string) {
  return (s: Seen, v: Verifier): void => {
    disclosureAuthentication(s, v);
    served(s, v, requestRule);
    if (!is2xx(s.x.status)) return;
    v.verify('CONV-JSON-BODIES', json_object_body(s.res));
    const body = s.res.json;
    // The members' types are the resource's (RES-DISCLOSURE-FIELD-TYPES, operations 1-3); where one is broken it
    // is reported once, there, and the response rule judges only that the members it lists are present.
    const typed =
      !isObject(body) || v.verify('RES-DISCLOSURE-FIELD-TYPES', schema_conformance(s.res, 'institution-disclosure'));
    v.verify(
      responseRule,
      typed
        ? schema_conformance(s.res, schema)
        : required_members(body, listedMembers(schema), `the ${what(requestRule)} response`, s.res),
    );
    if (isObject(body) && body.institutionDisclosureDataType !== undefined)
      v.verify(
        'RES-DISCLOSURE-DATATYPE-VALUES',
        shown_value(
          body.institutionDisclosureDataType,
          SHOWN.institutionDisclosureDataType,
          'institutionDisclosureDataType of the response',
          s.res,
        ),
      );
    if (!isObject(body)) return;
    disclosureData(body, `the ${what(requestRule)} response`, s, v);
    // The response describes the disclosure as sent: the values header and body agree on ("which wins: not shown").
    const sentValues: Record<string, unknown> = {};
    for (const [member, parse] of [
      ['institutionDisclosureName', String],
      ['institutionId', String],
      ['institutionDisclosureStatus', (x: string) => x === 'true'],
    ] as const) {
      const v2 = sentOnce(s, member, member);
      if (v2.known && (member !== 'institutionDisclosureStatus' || v2.value === 'true' || v2.value === 'false'))
        sentValues[member] = parse(v2.value!);
    }
    const reflects = requestRule === 'OP3-REQUEST' ? 'OP3-RESPONSE-REFLECTS-REQUEST' : 'OP2-RESPONSE-REFLECTS-REQUEST';
    // A name cut short by a size limit ("size limits …: not shown") is the name kept.
    if (cutShort(body.institutionDisclosureName, sentValues.institutionDisclosureName)) {
      const named = `institutionDisclosureName of the ${requestRule === 'OP3-REQUEST' ? 'change' : 'create'} response`;
      v.verify(
        reflects,
        name_kept(body.institutionDisclosureName, String(sentValues.institutionDisclosureName), named, s.res),
      );
      delete sentValues.institutionDisclosureName;
    }
    if (Object.keys(sentValues).length)
      v.verify(
        reflects,
        reflects_request(
          body,
          sentValues,
          `the ${requestRule === 'OP3-REQUEST' ? 'change' : 'create'} response`,
          s.res,
        ),
      );
  };
}

/**
 * STATE-ID-CHANGE is a state rule (sequence-rules.ts): only a later list shows the change stored, so the
 * change's own answer (a 2xx) never proves it. It can break it: an answer naming another disclosure, or
 * another name than sent, describes a change that was not the one asked for.
 */
export function changeAnswerContradicts(s: Seen, v: Verifier): void {
  const body = s.res.json;
  if (!is2xx(s.x.status) || !isObject(body)) return;
  const contradicts = (verdict: CheckVerdict) => verdict.outcome === 'failed' && v.verify('STATE-ID-CHANGE', verdict);
  const changed = s.mapped.pathParams.institutionDisclosureId;
  const what = (member: string) => `${member} of the change response`;
  contradicts(value_equals(body.institutionDisclosureId, changed, what('institutionDisclosureId'), s.res));
  const sent = requestJson(s).json;
  const name =
    isObject(sent) && typeof sent.institutionDisclosureName === 'string'
      ? sent.institutionDisclosureName
      : header(s.x.requestHeaders, 'institutionDisclosureName');
  if (name !== undefined && body.institutionDisclosureName !== undefined) {
    contradicts(name_kept(body.institutionDisclosureName, name, what('institutionDisclosureName'), s.res));
  }
}

/** The per-exchange rules of this file's operations; harness/rules/exchange-rules.ts gathers every area's. */
export const INSTITUTION_DISCLOSURE_RULES: OperationRules = {
  listInstitutionDisclosures,
  createInstitutionDisclosure: writeInstitutionDisclosure(
    'OP2-REQUEST',
    'OP2-RESPONSE',
    'institution-disclosure-create-response',
  ),
  changeInstitutionDisclosure: writeInstitutionDisclosure(
    'OP3-REQUEST',
    'OP3-RESPONSE',
    'institution-disclosure-change-response',
  ),
};
