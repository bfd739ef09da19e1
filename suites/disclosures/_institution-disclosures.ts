import { commonHeaders, createInstitutionDisclosureRequest, disclosureName, type Credentials } from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import { notApplicable, value_equals, type CheckVerdict } from '../../harness/checks';
import type { HttpResult } from '../../harness/http/client';

/** Helpers shared by the institution disclosure features (operations 1–3). */

export const is2xx = (res: HttpResult) => res.status >= 200 && res.status < 300;

export type Listed = Record<string, unknown>;

/** Operation 1's elements; "not applicable" when the list itself is broken (reported by operation 1's cases). */
export async function listInstitutionDisclosures(t: CaseContext, label = 'list institution disclosures', priority?: number): Promise<{ res: HttpResult; items: Listed[] }> {
  const res = await t.send({ operation: 'listInstitutionDisclosures', headers: commonHeaders(t.faker, t.config), label, ...(priority ? { priority } : {}) });
  if (!is2xx(res)) t.notApplicable(`the list of institution disclosures was not served (status ${res.status}; reported by OP1-REQUEST)`, res);
  const items = (res.json as { institutionDisclosures?: unknown } | undefined)?.institutionDisclosures;
  if (!Array.isArray(items)) t.notApplicable('the list of institution disclosures has no institutionDisclosures array (reported by OP1-RESPONSE-ENVELOPE)');
  return { res, items: items.filter((i): i is Listed => i !== null && typeof i === 'object') };
}

/** The listed disclosure the run created: by id when known, else by name (and institution). */
export function findDisclosure(items: Listed[], id: string | undefined, name: string, institutionId: string): Listed | undefined {
  if (id !== undefined) {
    const byId = items.find((i) => i.institutionDisclosureId === id);
    if (byId) return byId;
  }
  return items.find((i) => i.institutionDisclosureName === name && (i.institutionId === undefined || i.institutionId === institutionId));
}

/** Send operation 2 with a run-prefixed name (institution disclosures cannot be deleted through the interface). */
export async function createInstitutionDisclosure(t: CaseContext, status: boolean, credentials: Credentials = 'valid') {
  const name = disclosureName(t.faker, t.settings.runId);
  await t.parameter('institutionDisclosureName', name);
  await t.parameter('institutionDisclosureStatus', String(status));
  const req = createInstitutionDisclosureRequest(t.faker, t.config, name, status, credentials);
  const res = await t.send({ operation: 'createInstitutionDisclosure', ...req, label: `create institution disclosure ${name}` });
  return { name, res };
}

/**
 * The listed status is the one sent. A list element may omit the status (the spec allows it), and a
 * status that is not a boolean is reported once, by RES-DISCLOSURE-FIELD-TYPES.
 */
export function listedStatus(found: Listed, expected: boolean, res: HttpResult): CheckVerdict {
  const d = `the listed institutionDisclosureStatus is ${expected}`;
  const v = found.institutionDisclosureStatus;
  if (v === undefined) return notApplicable('value_equals', d, 'the list element omits institutionDisclosureStatus, as the spec allows', res);
  if (typeof v !== 'boolean') return notApplicable('value_equals', d, `the listed status is not a boolean (${JSON.stringify(v)}; reported by RES-DISCLOSURE-FIELD-TYPES)`, res);
  return value_equals(v, expected, 'the listed institutionDisclosureStatus', res);
}
