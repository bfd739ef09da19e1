import { json, type Req, type Res, type Route } from '../http';
import type { InstitutionDisclosure } from '../state';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The third hold-out set's faults of operations 1–3 (reference-target/faults/holdout3-disclosures.ts). */

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The faults of operations 1–3, after the route served the request. */
class InstitutionFaults {
  /** ho3-op2-status-of-previous-create: the status the previous create carried (a variable never reset). */
  private previousStatus: boolean | undefined;
  /** ho3-op3-changes-latest-disclosure: the ids the creates answered, in order. */
  readonly created: string[] = [];
  /** ho3-op1-second-list-stringifies-status: lists each written disclosure was shown in since its write. */
  private readonly listedSinceWrite = new Map<string, number>();
  /** ho3-op1-changed-without-name: the disclosures a change was served for. */
  private readonly changed = new Set<string>();
  constructor(private readonly ctx: AreaContext) {}

  afterCreate(body: Record<string, any>): void {
    const { state, fault: f } = this.ctx;
    const id = body.institutionDisclosureId;
    const d = typeof id === 'string' ? state.disclosures.get(id) : undefined;
    if (!d) return;
    const sent = d.institutionDisclosureStatus;
    if (f('ho3-op2-status-of-previous-create') && this.previousStatus !== undefined)
      d.institutionDisclosureStatus = this.previousStatus;
    this.previousStatus = sent;
    this.created.push(d.institutionDisclosureId);
    this.listedSinceWrite.set(d.institutionDisclosureId, 0);
    this.nullName(d, body);
  }

  /** ho3-op2-empty-name-null: an empty name is stored and answered as null. */
  private nullName(d: InstitutionDisclosure, body: Record<string, any>): void {
    if (d.institutionDisclosureName !== '' || !this.ctx.fault('ho3-op2-empty-name-null')) return;
    (d as { institutionDisclosureName: unknown }).institutionDisclosureName = null;
    body.institutionDisclosureName = null;
  }

  afterChange(id: string, body: Record<string, any>, before: InstitutionDisclosure | undefined): void {
    const { state, fault: f } = this.ctx;
    const d = state.disclosures.get(id);
    if (!d) return;
    this.listedSinceWrite.set(id, 0);
    this.changed.add(id);
    this.nullName(d, body);
    const renamed = before && before.institutionDisclosureName !== d.institutionDisclosureName;
    const derived = `disc-${slug(String(d.institutionDisclosureName ?? ''))}`;
    // The id is re-derived from the new name: the disclosure moves to another id.
    if (renamed && f('ho3-op3-rename-changes-id') && !state.disclosures.has(derived)) {
      state.disclosures.delete(id);
      d.institutionDisclosureId = derived;
      state.disclosures.set(derived, d);
      this.listedSinceWrite.delete(id);
      this.listedSinceWrite.set(derived, 0);
      this.changed.add(derived);
    }
  }

  /**
   * ho3-op1-second-list-stringifies-status: a written disclosure's status is a string from its second list on.
   * ho3-op1-changed-without-name: a list served from a change journal gives a changed disclosure without its name.
   */
  afterList(body: Record<string, any>): void {
    const f = this.ctx.fault;
    if (!Array.isArray(body.institutionDisclosures)) return;
    for (const e of (body.institutionDisclosures as unknown[]).filter(isJson)) {
      if (this.changed.has(e.institutionDisclosureId) && f('ho3-op1-changed-without-name'))
        delete e.institutionDisclosureName;
      if (!f('ho3-op1-second-list-stringifies-status')) continue;
      const n = this.listedSinceWrite.get(e.institutionDisclosureId);
      if (n === undefined) continue;
      if (n >= 1 && typeof e.institutionDisclosureStatus === 'boolean')
        e.institutionDisclosureStatus = String(e.institutionDisclosureStatus);
      this.listedSinceWrite.set(e.institutionDisclosureId, n + 1);
    }
  }
}

export function holdout3Institution(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  const faults = new InstitutionFaults(ctx);
  return async (route: Route, req: Req, next: Next): Promise<Res> => {
    const named = isJson(req.body) ? req.body.institutionDisclosureName : undefined;
    // Variant op3-refuses-empty-name: which names a target takes is not shown (and its errors are not).
    if (route.method !== 'GET' && named === '' && f('op3-refuses-empty-name'))
      return json(400, { error: 'bad_request', message: 'institutionDisclosureName must not be empty' });
    const pathId = req.params.institutionDisclosureId;
    const latest = faults.created.filter((c) => state.disclosures.has(c)).at(-1);
    // The change goes to the disclosure created last, whichever the path names.
    const redirected =
      route.method === 'PUT' && pathId && latest && latest !== pathId && f('ho3-op3-changes-latest-disclosure');
    if (redirected) req.params.institutionDisclosureId = latest;
    const id = req.params.institutionDisclosureId;
    const before = id ? state.disclosures.get(id) : undefined;
    const snapshot = before ? { ...before } : undefined;
    const answer = await next();
    if (!served(answer) || !isJson(answer.body)) return answer;
    const body = answer.body;
    if (route.method === 'GET') faults.afterList(body);
    if (route.method === 'POST') faults.afterCreate(body);
    if (route.method === 'PUT' && id) faults.afterChange(id, body, snapshot);
    if (redirected) body.institutionDisclosureId = pathId;
    return answer;
  };
}
