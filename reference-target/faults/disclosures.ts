import type { FaultDef } from './types';

const f = (name: string, description: string, breaks: string[], extra: Partial<FaultDef> = {}): FaultDef => ({ name, area: 'disclosures', description, breaks, ...extra });

export const DISCLOSURES_FAULTS: FaultDef[] = [
  f('op1-envelope-renamed', 'List institution disclosures answers {"disclosures": [...]} instead of {"institutionDisclosures": [...]}.', ['OP1-RESPONSE-ENVELOPE']),
  f('op1-status-as-string', 'List institution disclosures gives institutionDisclosureStatus as the string "true" instead of a boolean.', ['RES-DISCLOSURE-FIELD-TYPES']),
  f('op1-element-without-id', 'List institution disclosures omits institutionDisclosureId from an element (only Data, DataType and Status may be omitted).', ['RES-DISCLOSURE-OPTIONAL-MEMBERS']),
  f('op1-unlisted-data-type', 'List institution disclosures gives institutionDisclosureDataType "PDF", a value the spec does not show (an observation; a failure only under --strict).', ['RES-DISCLOSURE-DATATYPE-VALUES'], { strict: true }),
  f('op1-html-body', 'List institution disclosures answers 200 with an HTML page instead of a JSON object.', ['CONV-JSON-BODIES']),
  f('op1-requires-version-less-path', 'List institution disclosures is served only without the v1 segment (404 at the documented path).', ['OP1-REQUEST']),
  f('disc-serves-without-credentials', 'The disclosures operations serve a request that carries no Authorization header.', ['DISC-AUTH-REQUIRED']),
  f('disc-accepts-any-bearer-token', 'The disclosures operations serve a request with any bearer token, valid or not.', ['DISC-AUTH-REQUIRED']),
];
