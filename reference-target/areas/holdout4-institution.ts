import { json, type Req, type Res, type Route } from '../http';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The fourth hold-out set's faults of operations 1–3 (reference-target/faults/holdout4-disclosures.ts). */

type Json = Record<string, any>;

/** ho4-op2-long-name-null: names longer than this are answered as null (a column of 60 characters). */
const NAME_COLUMN = 60;

export function holdout4Institution(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  /** ho4-op3-change-back-to-true-ignored: the disclosures a change moved to false. */
  const changedToFalse = new Set<string>();

  /** ho4-op1-false-status-as-string, ho4-op1-sixth-element-id-number. */
  function afterList(body: Json): void {
    if (!Array.isArray(body.institutionDisclosures)) return;
    (body.institutionDisclosures as unknown[]).forEach((e, i) => {
      if (!isJson(e)) return;
      if (e.institutionDisclosureStatus === false && f('ho4-op1-false-status-as-string'))
        e.institutionDisclosureStatus = 'false';
      // A list built from a numeric key column from its second page of five on.
      if (i >= 5 && typeof e.institutionDisclosureId === 'string' && f('ho4-op1-sixth-element-id-number'))
        e.institutionDisclosureId = Number(e.institutionDisclosureId.replace(/\D/g, '')) || i;
    });
  }

  function afterCreate(body: Json): void {
    const id = body.institutionDisclosureId;
    const d = typeof id === 'string' ? state.disclosures.get(id) : undefined;
    if (!d) return;
    const sentFalse = d.institutionDisclosureStatus === false;
    // A column whose default (true) wins over a false that reads as "not set".
    if (sentFalse && f('ho4-op2-false-stored-true')) d.institutionDisclosureStatus = true;
    if (sentFalse && f('ho4-op2-false-drops-data-type')) delete body.institutionDisclosureDataType;
    const name = body.institutionDisclosureName;
    if (typeof name === 'string' && name.length > NAME_COLUMN && f('ho4-op2-long-name-null'))
      body.institutionDisclosureName = null;
  }

  function afterChange(id: string, wasStatus: boolean | undefined, body: Json): void {
    const d = state.disclosures.get(id);
    if (!d) return;
    const asked = d.institutionDisclosureStatus;
    // Once a change set it to false, a change back to true is taken as "no change" and kept false.
    if (asked === true && wasStatus === false && changedToFalse.has(id) && f('ho4-op3-change-back-to-true-ignored'))
      d.institutionDisclosureStatus = false;
    if (asked === false) changedToFalse.add(id);
    if (asked === false && f('ho4-op3-false-data-null')) body.institutionDisclosureData = null;
  }

  return async (route: Route, req: Req, next: Next): Promise<Res> => {
    const named = isJson(req.body) ? req.body.institutionDisclosureName : undefined;
    // Variant op2-op3-refuses-long-name: size limits are not shown (a column of 64 characters).
    if (route.method !== 'GET' && typeof named === 'string' && named.length > 64 && f('op2-op3-refuses-long-name'))
      return json(400, { error: 'bad_request', message: 'institutionDisclosureName is longer than 64 characters' });
    const id = req.params.institutionDisclosureId;
    const wasStatus = id ? state.disclosures.get(id)?.institutionDisclosureStatus : undefined;
    const answer = await next();
    if (!served(answer) || !isJson(answer.body)) return answer;
    if (route.method === 'GET') afterList(answer.body);
    if (route.method === 'POST') afterCreate(answer.body);
    if (route.method === 'PUT' && id) afterChange(id, wasStatus, answer.body);
    return answer;
  };
}
