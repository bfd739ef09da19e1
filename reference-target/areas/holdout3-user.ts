import type { Req, Res, Route } from '../http';
import type { UserDisclosure } from '../state';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The third hold-out set's faults of operations 4–7 (reference-target/faults/holdout3-disclosures.ts). */

type Records = Map<string, UserDisclosure>;
const copyOf = (m: Records): Records => new Map([...m].map(([k, v]) => [k, { ...v }]));

/** The records a write created, changed or removed: their ids. */
function touched(before: Records, after: Records): string[] {
  const ids = new Set([...before.keys(), ...after.keys()]);
  return [...ids].filter(
    (id) => before.get(id)?.institutionUserDisclosureStatus !== after.get(id)?.institutionUserDisclosureStatus,
  );
}

/**
 * ho3-op4-stale-second-read: a cache filled from a replica. The first list after a write of a record reads the
 * primary (right); from the second list on, the record shows as it was before that write, until it is written again.
 */
class StaleReads {
  /** Per record written: what it was before the write (null: absent), and the lists served since. */
  private readonly stale = new Map<string, { was: UserDisclosure | null; reads: number }>();

  written(before: Records, after: Records): void {
    for (const id of touched(before, after)) {
      const was = before.get(id);
      this.stale.set(id, { was: was ? { ...was } : null, reads: 0 });
    }
  }

  listed(body: Record<string, any>, consumer: string | null): void {
    if (!Array.isArray(body.institutionUserDisclosures)) return;
    const items = (body.institutionUserDisclosures as unknown[]).filter(isJson);
    const shown = new Map(items.map((e) => [e.institutionUserDisclosureId as string, e]));
    const out: unknown[] = [...body.institutionUserDisclosures];
    for (const [id, s] of this.stale) {
      const e = shown.get(id);
      const theirs = e !== undefined || s.was?.institutionUserId === consumer;
      if (!theirs) continue;
      if (s.reads >= 1) {
        if (s.was === null && e) out.splice(out.indexOf(e), 1);
        else if (s.was && e) e.institutionUserDisclosureStatus = s.was.institutionUserDisclosureStatus;
        else if (s.was && !e) out.push({ ...s.was });
      }
      s.reads += 1;
    }
    body.institutionUserDisclosures = out;
  }
}

export function holdout3User(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  /** ho3-op4-other-consumer-cached: the first consumer a list was served for. */
  let firstConsumer: string | undefined;
  /** ho3-op6-third-change-lost: the changes each record took. */
  const changes = new Map<string, number>();
  const stale = new StaleReads();

  function afterChange(req: Req, before: Records): void {
    const pathId = req.params.institutionUserDisclosureId;
    const ids = pathId ? [pathId] : touched(before, state.userDisclosures);
    for (const id of ids) {
      const r = state.userDisclosures.get(id);
      const was = before.get(id);
      if (!r || !was) continue;
      const n = (changes.get(id) ?? 0) + 1;
      changes.set(id, n);
      if (n === 3 && f('ho3-op6-third-change-lost'))
        r.institutionUserDisclosureStatus = was.institutionUserDisclosureStatus;
    }
    // The collection form is answered and never applied.
    if (!pathId && f('ho3-op6-collection-form-noop'))
      for (const id of touched(before, state.userDisclosures)) {
        const was = before.get(id);
        if (was) state.userDisclosures.set(id, was);
      }
  }

  function afterDelete(req: Req, before: Records): void {
    if (req.params.institutionUserDisclosureId || !f('ho3-op7-collection-form-noop')) return;
    for (const [id, was] of before) if (!state.userDisclosures.has(id)) state.userDisclosures.set(id, was);
  }

  return async (route: Route, req: Req, next: Next): Promise<Res> => {
    if (route.method === 'GET') {
      const consumer = req.query.get('InstitutionConsumerId');
      if (consumer && firstConsumer === undefined) firstConsumer = consumer;
      // A cache keyed by the path alone: every consumer gets the first consumer's list.
      if (consumer && consumer !== firstConsumer && f('ho3-op4-other-consumer-cached'))
        req.query.set('InstitutionConsumerId', firstConsumer!);
      const answer = await next();
      if (served(answer) && isJson(answer.body) && f('ho3-op4-stale-second-read'))
        stale.listed(answer.body, req.query.get('InstitutionConsumerId'));
      return answer;
    }
    const before = copyOf(state.userDisclosures);
    const answer = await next();
    if (!served(answer)) return answer;
    if (route.method === 'PUT') afterChange(req, before);
    if (route.method === 'DELETE') afterDelete(req, before);
    if (f('ho3-op4-stale-second-read')) stale.written(before, state.userDisclosures);
    return answer;
  };
}
