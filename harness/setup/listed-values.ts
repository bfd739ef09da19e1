import type { Exchange } from '../model';
import { parseJson } from '../json-depth';

/**
 * A configured value the target's own answers contradict (session 40): operation 1 lists the institution's
 * disclosures, each with the institutionId of its FI. Where every listed disclosure names an institutionId and none
 * is the one a create or change of an institution disclosure carries (testData.institutionId, sent as the
 * InstitutionId header and the institutionId member), the target has shown which FI it serves: what such a write
 * answers proves nothing of the target, and the configured value is what to check.
 */
export interface Contradiction {
  key: 'testData.institutionId';
  value: string;
  listed: string[];
}

const WRITES = new Set(['createInstitutionDisclosure', 'changeInstitutionDisclosure']);

export class ListedInstitutions {
  /** Listed disclosures: id → the institutionId listed with it. */
  private readonly elements = new Map<string, string>();
  /** The disclosures the run created (what a served create answered): their institutionId is the run's own. */
  private readonly created = new Set<string>();

  /** Take in an answered exchange (in any order). */
  observe(e: Exchange): void {
    const status = e.response?.status ?? 0;
    if (status < 200 || status >= 300) return;
    const body = parsed(e.response!.body);
    if (e.operation === 'createInstitutionDisclosure' && typeof body?.institutionDisclosureId === 'string')
      this.created.add(body.institutionDisclosureId);
    if (e.operation !== 'listInstitutionDisclosures' || !Array.isArray(body?.institutionDisclosures)) return;
    for (const i of body.institutionDisclosures as Array<Record<string, unknown> | null>) {
      const id = i?.institutionId;
      if (typeof id === 'string' || typeof id === 'number')
        this.elements.set(String(i?.institutionDisclosureId ?? this.elements.size), String(id));
    }
  }

  /** The institutionIds of the disclosures the target lists that the run did not create. */
  private get listed(): Set<string> {
    return new Set([...this.elements].filter(([id]) => !this.created.has(id)).map(([, inst]) => inst));
  }

  /** The target's lists (operation 1) show disclosures of this institutionId: the FI it serves. */
  lists(value: string): boolean {
    return this.listed.has(value);
  }

  /** The configured institutionId this write carries, where the target's lists name only other ones. */
  contradicted(e: Exchange): Contradiction | undefined {
    if (!WRITES.has(e.operation)) return undefined;
    const listed = this.listed;
    if (listed.size === 0) return undefined;
    const header = Object.entries(e.request.headers ?? {}).find(([k]) => k.toLowerCase() === 'institutionid')?.[1];
    let member: unknown;
    try {
      member = (JSON.parse(e.request.body ?? '') as { institutionId?: unknown }).institutionId;
    } catch {
      member = undefined;
    }
    const value = header ?? (typeof member === 'string' ? member : undefined);
    if (value === undefined || listed.has(value)) return undefined;
    return { key: 'testData.institutionId', value, listed: [...listed].slice(0, 5) };
  }
}

function parsed(text: string): Record<string, unknown> | undefined {
  try {
    const v = parseJson(text);
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
