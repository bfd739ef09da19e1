import type { Seen } from '../rules/exchange';
import { isObject, requestJson } from '../rules/request';
import type { RunLog } from '../log/run-log';
import { certainlyDifferent, sameNumber, samePhone, type Phone } from '../phone-number';
import { ContactInfoState } from './contact-info';
import { outcomeOf } from './outcome';

/**
 * "Which numbers may be on record for customer C now?" (issue 32), the drivers' question before a restore
 * (suites/contact-info/_customer-restore.ts: the candidates it sets back from), asked of the run's whole log, the
 * requests without an answer included (RunLog.withUnanswered: they may have landed). It reads the contact fold
 * (harness/state/contact-info.ts) as it folds, one entry at a time, and keeps:
 *
 * - every phone an update that was accepted, or whose outcome is unknown, named as new number, and "" where one may
 *   have cleared it (an update with an unknown outcome without a new number); also one refused after an earlier
 *   attempt was answered 429 or 5xx and sent again (that attempt may have landed);
 * - "" also where the log shows the suspicion of a clear: an accepted update that did not supply the phone, then a
 *   refusal (an answer of 400 or above but 401, 403, 404, 405 or 429, at the documented path, with the configured
 *   credentials) of an update
 *   naming as old and new a number the fold says may be on record (the read-back); after one, of any customer (the
 *   target has shown it may clear a number on such an update), every accepted update without the phone;
 * - an accepted confirmation (the same number as old and new: rule 2 accepts it only when it is on record) discounts
 *   the phones set before it (not one whose update overlapped it, nor one of an update without an answer, which may
 *   land any time), the confirmed one kept, unless the log shows the target accepting an update it should
 *   have refused for that customer: an accepted update whose oldPhoneNumber is certainly not any number the fold says
 *   may be on record (harness/phone-number.ts). Such a target accepts a confirmation of any number too, so every
 *   phone of the log stays a candidate, before that acceptance and after it.
 *
 * Country codes: the one an update sent, else the configured one (what the drivers' requests send for none).
 */

export interface OnRecordCandidates {
  /** The phones that may be on record: the fold's shown number, the others newest first, the one the last change
   * replaced (unless a confirmation followed), "" last where one may have cleared it; the configured one included
   * where an update may have put it back. */
  phones: Phone[];
  /** The log shows the target accepting an oldPhoneNumber certainly not on record for the customer: no confirmation
   * discounts a candidate. */
  acceptsAnyOld: boolean;
  /** "" is among the phones: an update may have cleared the number. */
  mayBeCleared: boolean;
  /** An update without the phone was accepted, or may have landed, since the last accepted confirmation: where the
   * phone is in doubt, it may be what moved it (a target that clears the number on such an update). */
  otherSinceConfirmed: boolean;
}

/** A phone an update may have put on record, and when that update's answer ended (Infinity: no answer, it may land
 * any time). */
interface Landed {
  p: Phone;
  endMs: number;
}

interface Tally {
  /** Since the last confirmation the log trusts (and every update that overlapped it), oldest first. */
  since: Landed[];
  /** Since the log began, oldest first. */
  ever: Landed[];
  acceptsAnyOld: boolean;
  /** An accepted update without the phone since the last accepted phone update. */
  keptSince: boolean;
  /** The log suspected a clear once, of any customer (the target's behaviour): every later accepted update without
   * the phone may have cleared the number again. Shared by every customer's tally. */
  clears: { seen: boolean };
  /** The last accepted phone update was a confirmation: the number it replaced before is not on record. */
  confirmedLast: boolean;
  /** An update without the phone was accepted, or may have landed, since the last accepted confirmation. */
  otherSince: boolean;
}

/** Refusals a request's number does not explain: the credentials (401, 403), the path (404, 405), the pace (429). */
const NOT_ABOUT_THE_NUMBER = new Set([401, 403, 404, 405, 429]);

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** An update (s) may have put p on record. */
function push(t: Tally, p: Phone, s: Seen): void {
  const endMs = s.x.status === 0 ? Number.POSITIVE_INFINITY : s.x.endMs;
  for (const list of [t.since, t.ever]) {
    const at = list.findIndex((q) => samePhone(p, q.p));
    const was = at >= 0 ? list.splice(at, 1)[0]!.endMs : endMs;
    list.push({ p, endMs: Math.max(was, endMs) });
  }
}

/** The number the last accepted change replaced, where no confirmation followed (a target that did not store the
 * change keeps it on record). */
function replacedNow(state: ContactInfoState, customer: string, t: Tally): string | undefined {
  return t.confirmedLast && !t.acceptsAnyOld ? undefined : state.previous(customer);
}

/** The numbers that may be on record now: the one the fold shows, the one it replaced, and every candidate. */
function mayBeNow(state: ContactInfoState, customer: string, t: Tally): string[] | undefined {
  const shown = state.phone(customer)?.number;
  if (shown === undefined) return undefined;
  const replaced = replacedNow(state, customer, t);
  return [
    shown,
    ...(replaced === undefined ? [] : [replaced]),
    ...(t.acceptsAnyOld ? t.ever : t.since).map((e) => e.p.number),
  ];
}

/** One update of the customer, read against the fold before it is folded in. */
function read(state: ContactInfoState, customer: string, configured: Phone, t: Tally, s: Seen): void {
  const body = requestJson(s).json;
  const phone = isObject(body) && isObject(body.phoneNumber) ? body.phoneNumber : undefined;
  const outcome = outcomeOf(s.x.status);
  const old = phone && str(phone.oldPhoneNumber);
  const next = phone && str(phone.newPhoneNumber);
  const keeps = old !== undefined && next !== undefined && sameNumber(old, next);
  const now = mayBeNow(state, customer, t);
  // A read-back not accepted (an answer of 400 or above, at the documented path with the configured credentials: a
  // refusal of a number on record that nothing else explains; not one about the credentials, the path or the pace).
  const configuredHere = !s.undocumentedPath && (s.authority === undefined || s.authority === 'configured');
  const notAccepted = s.x.status >= 400 && !NOT_ABOUT_THE_NUMBER.has(s.x.status) && configuredHere && keeps;
  if (notAccepted && t.keptSince && (now === undefined || now.some((n) => sameNumber(n, old!)))) {
    push(t, { number: '', countryCode: configured.countryCode }, s);
    t.clears.seen = true;
  }
  if (outcome === 'refused') {
    // An earlier attempt answered 429 or 5xx and sent again: a target that said it did not process it may have all the
    // same, and then refuses the repeat (its oldPhoneNumber moved): what it named as new may be on record (session
    // 41's safety hold-out, row H27).
    if (next !== undefined && s.res.exchange?.retries?.some((r) => /^(5\d\d|429)\b/.test(r)))
      push(t, { number: next, countryCode: (phone && str(phone.newCountryCode)) ?? configured.countryCode }, s);
    return;
  }
  if (!phone) t.otherSince = true;
  if (outcome === 'applied' && old !== undefined && now !== undefined && now.every((n) => certainlyDifferent(old, n)))
    t.acceptsAnyOld = true;
  const cc = (phone && str(phone.newCountryCode)) ?? configured.countryCode;
  if (outcome === 'unknown' || (phone && next === undefined)) {
    push(t, { number: next ?? '', countryCode: cc }, s);
    return;
  }
  if (!phone) {
    t.keptSince = true;
    if (t.clears.seen) push(t, { number: '', countryCode: configured.countryCode }, s);
    return;
  }
  t.keptSince = false;
  t.confirmedLast = keeps;
  if (keeps) t.otherSince = false;
  // A confirmation discounts what was set before it, not an update that overlapped it (it may have landed after).
  if (keeps) t.since = t.since.filter((e) => e.endMs > s.x.startMs);
  push(t, { number: next!, countryCode: cc }, s);
}

/**
 * Which phones may be on record for `customer` now, as the log shows it (see above), starting from the configured
 * phone (on record before the log).
 */
export function onRecordCandidates(log: readonly Seen[], customer: string, configured: Phone): OnRecordCandidates {
  const clears = { seen: false };
  const tally = (): Tally => ({
    since: [],
    ever: [],
    acceptsAnyOld: false,
    keptSince: false,
    confirmedLast: false,
    otherSince: false,
    clears,
  });
  // Every customer is read (a clear one shows is the target's), this one from its configured phone.
  const read1 = new Map<string, { state: ContactInfoState; t: Tally }>();
  read1.set(customer, { state: new ContactInfoState().found(customer, configured, 'configured'), t: tally() });
  for (const s of log) {
    const id = s.mapped.pathParams.customerId;
    if (s.mapped.operation !== 'updateContactInfo' || id === undefined) continue;
    let r = read1.get(id);
    if (!r) read1.set(id, (r = { state: new ContactInfoState(), t: tally() }));
    read(r.state, id, id === customer ? configured : { number: '', countryCode: configured.countryCode }, r.t, s);
    r.state.add(s);
  }
  const { state, t } = read1.get(customer)!;
  const out: Phone[] = [];
  const shown = state.phone(customer);
  const replaced = replacedNow(state, customer, t);
  const listed = (t.acceptsAnyOld ? t.ever : t.since).map((e) => e.p).reverse();
  const before = replaced === undefined ? undefined : { number: replaced, countryCode: configured.countryCode };
  // The shown number, the others newest first, the replaced one (usually among them already), "" last (as the restore
  // tries it: after every number).
  const ordered = [shown, ...listed.filter((p) => p.number !== ''), before, ...listed.filter((p) => p.number === '')];
  for (const p of ordered) {
    if (p === undefined) continue;
    const phone = { number: p.number, countryCode: p.countryCode || configured.countryCode };
    if (!out.some((q) => samePhone(q, phone))) out.push(phone);
  }
  const mayBeCleared = out.some((p) => p.number === '');
  return { phones: out, acceptsAnyOld: t.acceptsAnyOld, mayBeCleared, otherSinceConfirmed: t.otherSince };
}

/** onRecordCandidates over an active run's whole log, the requests that got no answer included. */
export function candidatesOnRecord(
  log: Pick<RunLog, 'withUnanswered'>,
  customer: string,
  configured: Phone,
): OnRecordCandidates {
  return onRecordCandidates(log.withUnanswered(), customer, configured);
}
