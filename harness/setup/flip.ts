import type { Exchange } from '../model';

/**
 * Proven, then refused, means the target changed (issue 31). A configured credential that the target
 * served earlier in the run and refused (401/403) on every request that carried it from one moment on,
 * on two operations or more, was expired or revoked during the run: neither a setup mistake found at
 * the start nor a fault of the target's on one operation (that one stays a failure: op4-refuses-valid-token).
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

/** Requests sent this close before the last served one still belong to the moment (concurrent requests). */
const OVERLAP_MS = 250;

const sentAt = (e: Exchange) => Date.parse(e.startedAt) + (e.waitedMs ?? 0);
const served = (e: Exchange) => (e.response?.status ?? 0) >= 200 && (e.response?.status ?? 0) < 300;
const refused = (e: Exchange) => e.response?.status === 401 || e.response?.status === 403;

/** The moment a credential flipped from served to refused, from the exchanges that carried it; else undefined. */
export function flipOf(carried: readonly Exchange[]): Flip | undefined {
  // Answers that say nothing of the credential (a 5xx, a 429, no answer) are left out.
  const answered = carried
    .filter((e) => served(e) || refused(e))
    .sort((a, b) => sentAt(a) - sentAt(b) || a.seq - b.seq);
  let last = -1;
  answered.forEach((e, i) => {
    if (served(e)) last = i;
  });
  if (last < 0 || last === answered.length - 1) return undefined;
  const lastServed = answered[last]!;
  // The refused tail, and the refusals sent alongside the last served requests (in flight together).
  const tail = answered.filter((e, i) => refused(e) && (i > last || sentAt(e) >= sentAt(lastServed) - OVERLAP_MS));
  const firstRefused = answered[last + 1]!;
  const operations = new Set(tail.map((e) => e.operation)).size;
  if (tail.length < 3 || operations < 2) return undefined;
  return { at: Math.min(...tail.map(sentAt)), lastServed, firstRefused, refusals: tail.length, operations };
}

/** Whether this refusal came at or after the flip. */
export function afterFlip(e: Exchange, flip: Flip): boolean {
  return refused(e) && sentAt(e) >= flip.at;
}
