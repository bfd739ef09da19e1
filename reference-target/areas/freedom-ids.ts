import type { Req, Res } from '../http';
import { isJson } from './holdout-disclosures';

/**
 * Variant fr-ids-need-encoding: the ids the target gives out are URNs with a colon, a slash, a space and a plus
 * ("urn:fi:disc-1/r 1+x"): both ids are typed "string", their shape not shown, so a client puts one in a path
 * percent-encoded. Applied as a gateway would: the ids of answers are given out, those of requests taken back.
 */

const SUFFIX = '/r 1+x';
const outward = (id: string) => `urn:fi:${id}${SUFFIX}`;
const inward = (id: string) =>
  id.startsWith('urn:fi:') && id.endsWith(SUFFIX) ? id.slice('urn:fi:'.length, -SUFFIX.length) : id;

const ID_MEMBERS = ['institutionDisclosureId', 'institutionUserDisclosureId'];

/** The request as the target's own routes take it: every id of the path, the headers and the body, taken back. */
export function idsTakenBack(req: Req): void {
  for (const k of ID_MEMBERS) if (req.params[k] !== undefined) req.params[k] = inward(req.params[k]!);
  const h = req.headers['institutiondisclosureid'];
  if (h !== undefined) req.headers['institutiondisclosureid'] = inward(h);
  if (isJson(req.body))
    for (const k of ID_MEMBERS) if (typeof req.body[k] === 'string') req.body[k] = inward(req.body[k]);
}

function givenOut(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(givenOut);
  if (!isJson(v)) return v;
  const o: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v))
    o[k] = ID_MEMBERS.includes(k) && typeof x === 'string' ? outward(x) : givenOut(x);
  return o;
}

/** The answer with every id given out. */
export const idsGivenOut = (answer: Res): Res =>
  isJson(answer.body) ? { ...answer, body: givenOut(answer.body) } : answer;
