import type { Seen } from '../rules/exchange';

/**
 * The institution disclosures (operations 1–3) as a log shows them: a fold over `Seen` entries with a read-only
 * query API. It knows only what the last 2xx list proves (each listed disclosure's id, name and status, where the
 * list gives them); a write answered 2xx, or whose outcome is unknown, makes the disclosure it names unknown until
 * the next list. It judges nothing (the rules of harness/rules/ do): the explorer reads it to choose its commands.
 */

export interface ListedDisclosure {
  id: string;
  name?: string;
  status?: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export class InstitutionDisclosureState {
  private listed = new Map<string, ListedDisclosure>();
  private readonly touched = new Set<string>();
  /** Every institutionDisclosureId a list or a create's answer showed. */
  private readonly issued = new Set<string>();
  private lists = 0;

  /** Fold one entry in (in the order sent). */
  add(s: Seen): this {
    const op = s.mapped.operation;
    const served = s.x.status >= 200 && s.x.status < 300;
    if (op === 'listInstitutionDisclosures') {
      const items = (s.res.json as { institutionDisclosures?: unknown } | undefined)?.institutionDisclosures;
      if (!served || !Array.isArray(items)) return this;
      this.listed = new Map();
      this.touched.clear();
      this.lists++;
      for (const d of items.filter(isObject)) {
        if (typeof d.institutionDisclosureId !== 'string') continue;
        this.issued.add(d.institutionDisclosureId);
        this.listed.set(d.institutionDisclosureId, {
          id: d.institutionDisclosureId,
          ...(typeof d.institutionDisclosureName === 'string' ? { name: d.institutionDisclosureName } : {}),
          ...(typeof d.institutionDisclosureStatus === 'boolean' ? { status: d.institutionDisclosureStatus } : {}),
        });
      }
    } else if (op === 'createInstitutionDisclosure' && served && isObject(s.res.json)) {
      const id = s.res.json.institutionDisclosureId;
      if (typeof id === 'string') this.issued.add(id);
    } else if (op === 'changeInstitutionDisclosure' && !(s.x.status >= 400 && s.x.status < 500)) {
      const id = s.mapped.pathParams.institutionDisclosureId;
      // A change of an id no list showed may touch any disclosure: every one is unknown until the next list.
      if (id !== undefined && this.listed.has(id)) this.touched.add(id);
      else for (const k of this.listed.keys()) this.touched.add(k);
    }
    return this;
  }

  /** The disclosure as the last list showed it (undefined: not listed, or written since). */
  record(id: string): Readonly<ListedDisclosure> | undefined {
    return this.touched.has(id) ? undefined : this.listed.get(id);
  }

  /** The id the last list gives the disclosure named `name` (the first, where several carry it). */
  idOf(name: string): string | undefined {
    for (const d of this.listed.values()) if (d.name === name) return d.id;
    return undefined;
  }

  /** Every institutionDisclosureId a list or a create's answer showed. */
  issuedIds(): ReadonlySet<string> {
    return this.issued;
  }

  /** How many 2xx lists with an institutionDisclosures array the log holds. */
  listsSeen(): number {
    return this.lists;
  }
}
