import type { Seen } from '../rules/exchange';
import { isObject, requestJson } from '../rules/request';
import { sameNumber, samePhone, type Phone } from '../phone-number';
import { outcomeOf } from './outcome';

/**
 * "Which phone does the run believe is on record for customer C, and is it in doubt?" (issue 32), the drivers'
 * question (suites/contact-info/): where a case starts from, whether the last case out hands the customer on or
 * reconciles first, whether the restore may skip the phone. Asked of the run's whole log, the requests without an
 * answer included (RunLog.withUnanswered), and of one thing only the customer's lock knows: which updates the case
 * holding the customer sent alone (its lock exclusive, or settling it for the others: `alone`, by exchange index).
 *
 * - **The phone believed**: the configured one, then what every accepted phone update sent alone put on record (its
 *   new number, and its country code, else the one before: a case that holds the customer alone moves the number it
 *   believes). An update another
 *   case sent beside it (a request a conformant target refuses, accepted) does not move it: it puts it in doubt.
 * - **In doubt** (the phone on record may be another), since the last confirmation sent alone (an accepted update
 *   naming the same number as old and new) that started after it ended:
 *   - an update whose outcome is unknown (no answer, 5xx but 503) that names a phone other than the believed one
 *     as old and new (or without a new number);
 *   - an accepted phone update not sent alone, other than a confirmation of the believed number;
 *   - accepted phone changes that overlapped (which landed last is unknown);
 *   - a phone update naming the believed number as oldPhoneNumber refused (an answer of 400 or above but 401, 403,
 *     404, 405 or 429, at the documented path with the configured credentials: about the number) once the log shows
 *     an update of the customer that was accepted or may have landed: a read-back refused after an update without
 *     the phone, or a confirmation refused without proof. Before any such update the run changed nothing that a
 *     refusal could show moved (the setup proofs read those, harness/setup/).
 */

export interface BelievedOnRecord {
  /** The phone the run believes is on record. */
  phone: Phone;
  /** Why the phone on record may be another (undefined: the believed one). */
  doubt?: string;
}

/** Refusals a request's number does not explain: the credentials (401, 403), the path (404, 405), the pace (429). */
const NOT_ABOUT_THE_NUMBER = new Set([401, 403, 404, 405, 429]);

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

interface Walk {
  believed: Phone;
  /** Each doubt and when the update that raised it ended (the client's end for one without an answer). */
  doubts: Array<{ why: string; endMs: number }>;
  /** An update of the customer was accepted, or may have landed. */
  touched: boolean;
  /** When the last accepted phone change ended (an overlap with the next one puts the number in doubt). */
  lastChangeEndMs: number;
}

const quote = (n: string) => JSON.stringify(n);

/** A refusal about the number named: at the documented path, with the configured credentials (a capture's unknown). */
function aboutTheNumber(s: Seen): boolean {
  const configured = s.authority === undefined || s.authority === 'configured';
  return s.x.status >= 400 && !NOT_ABOUT_THE_NUMBER.has(s.x.status) && !s.undocumentedPath && configured;
}

/** One update of the customer, read in the order sent. */
function read(w: Walk, s: Seen, alone: boolean): void {
  const body = requestJson(s).json;
  const phone = isObject(body) && isObject(body.phoneNumber) ? body.phoneNumber : undefined;
  const old = phone && str(phone.oldPhoneNumber);
  const next = phone && str(phone.newPhoneNumber);
  const keeps = old !== undefined && next !== undefined && sameNumber(old, next);
  const believedKept = keeps && sameNumber(next!, w.believed.number);
  const doubt = (why: string) => w.doubts.push({ why: `${why} (exchange #${s.x.index})`, endMs: s.x.endMs });
  const outcome = outcomeOf(s.x.status);
  if (outcome === 'refused') {
    if (old !== undefined && w.touched && sameNumber(old, w.believed.number) && aboutTheNumber(s))
      doubt(`an update naming ${quote(old)} as oldPhoneNumber was refused (status ${s.x.status})`);
    return;
  }
  w.touched = true;
  if (!phone) return;
  if (outcome === 'unknown') {
    if (!believedKept) doubt(`an update naming ${quote(next ?? '')} as new number got no answer it can be read by`);
    return;
  }
  if (next === undefined) {
    doubt('an accepted phoneNumber object named no new number');
    return;
  }
  if (!keeps) {
    if (s.x.startMs < w.lastChangeEndMs) doubt('accepted phone changes overlapped');
    w.lastChangeEndMs = Math.max(w.lastChangeEndMs, s.x.endMs);
  }
  if (!alone) {
    if (!believedKept) doubt(`an update another test sent beside it was accepted, naming ${quote(next)} as new number`);
    return;
  }
  // No country code sent: the target keeps its own (harness/phone-number.ts).
  w.believed = { number: next, countryCode: str(phone.newCountryCode) ?? w.believed.countryCode };
  // A confirmation sent alone proves the number on record: what ended before it started is settled.
  if (keeps) w.doubts = w.doubts.filter((d) => d.endMs > s.x.startMs);
}

/**
 * The phone the run believes is on record for `customer`, and why it may be another (see above): `alone` says which
 * updates (by exchange index) the case that held the customer sent alone.
 */
export function believedOnRecord(
  log: readonly Seen[],
  customer: string,
  configured: Phone,
  alone: (index: number) => boolean,
): BelievedOnRecord {
  const w: Walk = { believed: configured, doubts: [], touched: false, lastChangeEndMs: Number.NEGATIVE_INFINITY };
  for (const s of [...log].sort((a, b) => a.x.index - b.x.index)) {
    if (s.mapped.operation !== 'updateContactInfo' || s.mapped.pathParams.customerId !== customer) continue;
    read(w, s, alone(s.x.index));
  }
  const phone = samePhone(w.believed, configured) ? configured : w.believed;
  return w.doubts.length ? { phone, doubt: w.doubts.map((d) => d.why).join('; ') } : { phone };
}
