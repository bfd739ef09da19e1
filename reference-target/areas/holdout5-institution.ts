import type { Req, Res, Route } from '../http';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The fifth hold-out set's faults of operations 1–3 (reference-target/faults/holdout5-disclosures.ts). */

type Json = Record<string, any>;

export function holdout5Institution(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  /** The disclosures created through the interface, in order. */
  const created: string[] = [];
  /** ho5-op3-second-change-name-lost: per disclosure, the changes served and the name the first one set. */
  const changes = new Map<string, { count: number; first: string }>();

  function afterCreate(body: Json): void {
    const id = body.institutionDisclosureId;
    const d = typeof id === 'string' ? state.disclosures.get(id) : undefined;
    if (!d) return;
    created.push(id);
    // The third row of a batch insert takes its flag column negated.
    if (created.length === 3 && typeof d.institutionDisclosureStatus === 'boolean')
      if (f('ho5-op2-third-create-status-inverted')) d.institutionDisclosureStatus = !d.institutionDisclosureStatus;
    if (d.institutionDisclosureStatus === false && f('ho5-op2-false-create-omits-name'))
      delete body.institutionDisclosureName;
  }

  function afterChange(id: string, body: Json): void {
    const d = state.disclosures.get(id);
    if (!d) return;
    const seen = changes.get(id) ?? { count: 0, first: d.institutionDisclosureName };
    seen.count += 1;
    changes.set(id, seen);
    // The name column is written once per disclosure by the change path.
    if (seen.count >= 2 && f('ho5-op3-second-change-name-lost')) d.institutionDisclosureName = seen.first;
    const at = created.indexOf(id);
    const previous = at > 0 ? state.disclosures.get(created[at - 1]!) : undefined;
    if (previous && f('ho5-op3-change-renames-previous'))
      previous.institutionDisclosureName = d.institutionDisclosureName;
    const other = created.find((c) => c !== id);
    if (other && f('ho5-op3-response-id-of-other')) body.institutionDisclosureId = other;
  }

  return async (route: Route, req: Req, next: Next): Promise<Res> => {
    const id = req.params.institutionDisclosureId;
    const answer = await next();
    if (!served(answer) || !isJson(answer.body)) return answer;
    if (route.method === 'POST') afterCreate(answer.body);
    if (route.method === 'PUT' && id) afterChange(id, answer.body);
    return answer;
  };
}
