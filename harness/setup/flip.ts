import type { Exchange } from '../model';
import { parseJson } from '../json-depth';

/**
 * Proven, then refused, means the target changed (issue 31). A configured credential that the target
 * served earlier in the run and refused as unauthenticated (401) on every request that carried it from
 * one moment on, three times or more, among them an operation it had served before with it, was expired
 * or revoked during the run: neither a setup mistake found at the start nor a fault of the target's on an
 * operation it never served (that one stays a failure: op4-refuses-valid-token). A 403 is no expiry: the
 * credential is known and lacks the right (a user the token does not stand for). The evidence (session 40): a request
 * of the same shape as one served before is among the refused ones (the control: vary nothing but the time), or the
 * target names it (its refusals say the credential expired or was revoked). A target that answers 401 only to
 * requests of shapes it never served (a body that breaks a type) has not shown the credential expire.
 */
export interface Flip {
  /** When the first request refused for good left the client (ms since the epoch). */
  at: number;
  /** The last request it was served on, and the first it was refused on from then on. */
  lastServed: Exchange;
  firstRefused: Exchange;
  /** How many requests were refused from then on, and on how many operations. */
  refusals: number;
  operations: number;
}

/** A refusal that says the credential itself is no longer good (not "an invalid request"). */
const NAMES_EXPIRY = /expir|revoked|invalid[ _-]?(access[ _-]?)?token|token (is )?(not valid|invalid|unknown)/i;

/** Requests sent this close before the last served one still belong to the moment (concurrent requests). */
const OVERLAP_MS = 250;

const sentAt = (e: Exchange) => Date.parse(e.startedAt) + (e.waitedMs ?? 0);
const answeredAt = (e: Exchange) => sentAt(e) + e.durationMs;
const served = (e: Exchange) => (e.response?.status ?? 0) >= 200 && (e.response?.status ?? 0) < 300;
const refused = (e: Exchange) => e.response?.status === 401;
const forbidden = (e: Exchange) => e.response?.status === 403;

/** The moment a credential flipped from served to refused, from the exchanges that carried it; else undefined. */
export function flipOf(carried: readonly Exchange[]): Flip | undefined {
  // Answers that say nothing of the credential (a 5xx, a 429, no answer) are left out.
  const answered = carried
    .filter((e) => served(e) || refused(e) || forbidden(e))
    .sort((a, b) => sentAt(a) - sentAt(b) || a.seq - b.seq);
  let last = -1;
  answered.forEach((e, i) => {
    if (served(e)) last = i;
  });
  if (last < 0 || last === answered.length - 1) return undefined;
  const lastServed = answered[last]!;
  // The refused tail, and the refusals in flight alongside the last served request (sent close before it,
  // or still unanswered when it was sent): the order of arrival at the target is not the order of sending.
  const alongside = (e: Exchange) =>
    sentAt(e) >= sentAt(lastServed) - OVERLAP_MS || answeredAt(e) >= sentAt(lastServed);
  // A 403 after the last served request: the credential is known; not an expiry.
  if (answered.slice(last + 1).some(forbidden)) return undefined;
  const tail = answered.filter((e, i) => refused(e) && (i > last || alongside(e)));
  const firstRefused = answered[last + 1]!;
  const ops = new Set(tail.map((e) => e.operation));
  // The control: a request of the very shape of one it served before (same operation, query names and body types) is
  // refused now. Requests of shapes it never served (a body that breaks a type, another member) prove no expiry.
  // Or the target names it: its refusals say the credential expired or was revoked, on an operation it served before.
  if (tail.length < 3) return undefined;
  // Vary the operation: an operation of the tail already refused while the credential was still served on others
  // (one of its refusals came back before the last served request left) is refused for itself, not for the credential
  // (session 41: a list refused 401 after the first write, every other operation served). One such operation is
  // enough: an expiry refuses everything sent after it, never one operation first (session 40's F8: the writes refused
  // from the first on, the reads served, and the run's last requests the explorer's refused clean-up writes).
  if ([...ops].some((op) => refusedBefore(answered, op, lastServed))) return undefined;
  const sameOperation = answered.some((e, i) => i <= last && served(e) && ops.has(e.operation));
  const named = sameOperation && tail.some((e) => NAMES_EXPIRY.test(e.response?.body ?? ''));
  if (!named) {
    const tailShapes = new Set(tail.map(shapeOf));
    if (!answered.some((e, i) => i <= last && served(e) && tailShapes.has(shapeOf(e)))) return undefined;
  }
  const operations = ops.size;
  return { at: Math.min(...tail.map(sentAt)), lastServed, firstRefused, refusals: tail.length, operations };
}

/**
 * The operation's refusals began before the credential's last served request: a 401 to it after its own last served
 * request came back before the credential's last served request was sent (an expiry refuses what is sent after it).
 */
function refusedBefore(answered: readonly Exchange[], op: string, lastServed: Exchange): boolean {
  const own = answered.filter((e) => e.operation === op);
  const lastOwn = own.reduce((at, e, i) => (served(e) ? i : at), -1);
  const first = own.slice(lastOwn + 1).find(refused);
  return first !== undefined && answeredAt(first) < sentAt(lastServed);
}

/** Whether this refusal came at or after the flip. */
export function afterFlip(e: Exchange, flip: Flip): boolean {
  return refused(e) && sentAt(e) >= flip.at;
}

const shapeCache = new WeakMap<Exchange, string>();

/** What a request is, apart from its values: operation, method, query parameter names, the JSON types of its body. */
export function shapeOf(e: Exchange): string {
  const known = shapeCache.get(e);
  if (known !== undefined) return known;
  const shape = shapeOfRequest(e);
  shapeCache.set(e, shape);
  return shape;
}

function shapeOfRequest(e: Exchange): string {
  let query = '';
  let path = e.request.url;
  try {
    const u = new URL(e.request.url);
    query = [...new Set(u.searchParams.keys())].sort().join('&');
    path = u.pathname;
  } catch {
    // keep the URL as recorded
  }
  const byId = e.operation === 'raw' ? path : '';
  return `${e.operation} ${e.request.method} ${byId}?${query} ${typesOf(parsed(e.request.body))}`;
}

function parsed(body: string | undefined): unknown {
  if (body === undefined || body === '') return undefined;
  try {
    return parseJson(body);
  } catch {
    return 'text';
  }
}

/** The JSON types of a value, members sorted: {"a":"number","b":{"c":"string"}}. */
function typesOf(v: unknown, depth = 0): string {
  if (Array.isArray(v)) return `[${depth > 4 ? '' : [...new Set(v.map((x) => typesOf(x, depth + 1)))].join('|')}]`;
  if (v === null) return 'null';
  if (typeof v !== 'object') return typeof v;
  if (depth > 4) return 'object';
  const members = Object.keys(v as object)
    .sort()
    .map((k) => `${k}:${typesOf((v as Record<string, unknown>)[k], depth + 1)}`);
  return `{${members.join(',')}}`;
}
