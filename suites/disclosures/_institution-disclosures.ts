import {
  commonHeaders,
  createInstitutionDisclosureRequest,
  disclosureName,
  type Credentials,
} from '../../data-builders/disclosures';
import type { CaseContext } from '../../harness/case';
import type { HttpResult } from '../../harness/http/client';
import type { Listed } from '../../harness/disclosure-records';

/** Helpers shared by the institution disclosure features (operations 1–3). */

export const is2xx = (res: HttpResult) => res.status >= 200 && res.status < 300;

export { findDisclosure, type Listed } from '../../harness/disclosure-records';

/**
 * An answer or element whose institutionDisclosureData RES-DISCLOSURE-DATA-URL judges: a string, of data
 * type URL or none given.
 */
export function carriesUrlData(x: unknown): boolean {
  if (x === null || typeof x !== 'object') return false;
  const { institutionDisclosureData: data, institutionDisclosureDataType: type } = x as Record<string, unknown>;
  return typeof data === 'string' && (type === undefined || type === 'URL');
}

/** Operation 1's elements; "not applicable" when the list itself is broken (reported by operation 1's cases). */
export async function listInstitutionDisclosures(
  t: CaseContext,
  label = 'list institution disclosures',
  priority?: number,
): Promise<{ res: HttpResult; items: Listed[] }> {
  const res = await t.send({
    operation: 'listInstitutionDisclosures',
    headers: commonHeaders(t.faker, t.config),
    label,
    ...(priority ? { priority } : {}),
  });
  if (!is2xx(res))
    t.notApplicable(
      `the list of institution disclosures was not served (status ` + `${res.status}; reported by OP1-REQUEST)`,
      res,
    );
  const items = (res.json as { institutionDisclosures?: unknown } | undefined)?.institutionDisclosures;
  if (!Array.isArray(items))
    t.notApplicable(
      'the list of institution disclosures has no institutionDisclosures ' +
        'array (reported by OP1-RESPONSE-ENVELOPE)',
    );
  return { res, items: items.filter((i): i is Listed => i !== null && typeof i === 'object') };
}

/** Send operation 2 with a run-prefixed name (institution disclosures cannot be deleted through the interface). */
export async function createInstitutionDisclosure(t: CaseContext, status: boolean, credentials: Credentials = 'valid') {
  const name = disclosureName(t.faker, t.settings.runId);
  await t.parameter('institutionDisclosureName', name);
  await t.parameter('institutionDisclosureStatus', String(status));
  const req = createInstitutionDisclosureRequest(t.faker, t.config, name, status, credentials);
  const res = await t.send({
    operation: 'createInstitutionDisclosure',
    ...req,
    label: `create institution disclosure ${name}`,
  });
  return { name, res };
}
