import { not_served } from '../../checks';
import { operation_found, served } from '../../checks/served';
import { ContactInfoState, type NumberOnRecord } from '../../state/contact-info';
import { outcomeOf, type Outcome } from '../../state/outcome';
import { certainlyDifferent, sameNumber } from '../../phone-number';
import { DOCUMENTED_PATH, refusedForNoReason, suppliedObjects, suppliedRule } from '../contact-info';
import type { Known, Seen, Verifier } from '../exchange';
import { isObject } from '../request';
import { parseJson } from '../../json-depth';

/**
 * Operation 10's state rules across the log: the phone number on record, as the contact fold
 * (harness/state/contact-info.ts) says the log shows it (no retrieval is specified: what an update stored is
 * observed through rule 2, the number a later update may name as oldPhoneNumber). `judgeSequence`
 * (harness/rules/sequence-rules.ts) keeps the timeline: it folds each write in when its answer ended, and asks
 * these rules about each update when it started.
 */

function bodyOf(s: Seen): Record<string, any> {
  try {
    const j = parseJson(s.x.requestBody ?? '');
    return isObject(j) ? j : {};
  } catch {
    return {};
  }
}

/** The rule a later update naming the number a phone update put on record proves (or breaks). */
function storedRule(body: Record<string, any>): string {
  const phone = body.phoneNumber as Record<string, any>;
  if (suppliedObjects(body).length === 3) return 'OP10-RULE3-PHONE-STORED';
  const codes = [phone.oldCountryCode, phone.newCountryCode];
  if (codes.every((c) => typeof c === 'string') && codes[0] !== codes[1]) return 'OP10-RULE1-COUNTRY-CODE-STORED';
  return 'OP10-RULE1-PHONE-STORED';
}

type Note = (i: number, text: string) => void;

/** The write a contact update that was not refused makes, in the shape judgeSequence's timeline holds. */
export interface ContactWrite {
  s: Seen;
  keys: string[];
  apply: () => void;
  /** The phone number it may put on record ("" for one without phoneNumber, which a faulty target may clear it with);
   * undefined if it cannot be told. */
  setsPhone?: string;
}

/**
 * The contact fold the rules read, with the log's exchanges by index (to name what shows a number on record) and
 * what the run knows of the numbers on record before the log (Known).
 */
export class ContactRules {
  readonly fold = new ContactInfoState();
  private readonly byIndex = new Map<number, Seen>();

  constructor(
    log: readonly Seen[],
    known: Known,
    private readonly note: Note,
  ) {
    for (const s of log) this.byIndex.set(s.x.index, s);
    for (const [customer, p] of Object.entries(known.phonesOnRecord ?? {}))
      this.fold.found(customer, { number: p.number, countryCode: '' }, p.from);
  }

  /** The write a contact update that was not refused makes: folded in when its answer ended. */
  write(s: Seen, outcome: Outcome, why: string): ContactWrite {
    const customer = s.mapped.pathParams.customerId!;
    const phone = bodyOf(s).phoneNumber;
    const apply = () => {
      this.fold.add(s);
      if (outcome !== 'unknown') return;
      this.note(
        s.x.index,
        `phone number on record of customer ${customer} unknown (${why}) until a later update proves it`,
      );
    };
    const setsPhone = isObject(phone)
      ? typeof phone.newPhoneNumber === 'string'
        ? phone.newPhoneNumber
        : undefined
      : '';
    return { s, keys: [`phone|${customer}`], setsPhone, apply };
  }

  /** The rule a later acceptance of the number on record proves: what the update that shows it did. */
  ruleOf(p: NumberOnRecord): string | undefined {
    if (p.how === 'kept') return 'OP10-RULE1-UNSUPPLIED-KEPT';
    const s = p.how === 'stored' && p.by !== undefined ? this.byIndex.get(p.by) : undefined;
    return s ? storedRule(bodyOf(s)) : undefined;
  }

  /**
   * Judge a contact update by the number on record the fold shows before it. `meanwhile`: the numbers the updates
   * that overlap it may put on record (undefined when none overlaps); `later`: the number on record as the
   * customer's next write shows it.
   */
  judgeUpdate(s: Seen, v: Verifier, meanwhile: Array<string | undefined> | undefined, later: () => string | undefined) {
    const phone = bodyOf(s).phoneNumber;
    const outcome = outcomeOf(s.x.status);
    if (!isObject(phone) || typeof phone.oldPhoneNumber !== 'string' || outcome === 'unknown') return;
    const old = phone.oldPhoneNumber;
    const customer = s.mapped.pathParams.customerId!;
    const st = this.fold.phone(customer);
    if (meanwhile) return this.mismatchMeanwhile(s, v, old, meanwhile);
    if (st === undefined) {
      const onRecord = later();
      const how = 'the next update served named it as oldPhoneNumber, with no write in between';
      if (onRecord !== undefined && sameNumber(old, onRecord)) onRecordRefused(s, v, how);
      return;
    }
    if (sameNumber(old, st.number)) {
      if (outcome !== 'applied') return this.storedNumberRefused(s, v, st);
      const rule = this.ruleOf(st);
      if (rule) v.verify(rule, served(s.res, `oldPhoneNumber ${old} is the number on record ${shownBy(st)}`));
      return;
    }
    // The same digits written otherwise: whether it matches is not shown (harness/phone-number.ts).
    if (!certainlyDifferent(old, st.number)) return;
    const replaced = this.fold.replaced(customer);
    if (replaced !== undefined && sameNumber(old, replaced.number)) {
      const by = `the 2xx update in exchange #${replaced.by}`;
      const why = `oldPhoneNumber ${old} is the previous number, replaced by ${by}`;
      return void v.verify(storedRule(bodyOf(this.byIndex.get(replaced.by)!)), not_served(s.res, why));
    }
    // Written otherwise, the replaced number says nothing of which rule an acceptance breaks: no verdict.
    if (replaced !== undefined && !certainlyDifferent(old, replaced.number)) return;
    const why = `oldPhoneNumber ${old} is not the number on record (${st.number} ${shownBy(st)})`;
    v.verify('OP10-RULE2-OLD-PHONE-MATCH', not_served(s.res, why));
  }

  /**
   * OP10-RULE2-OLD-PHONE-MATCH while other updates of the customer ran (several requests to refuse, side by side):
   * judged only where oldPhoneNumber differs from every number that can be on record.
   */
  private mismatchMeanwhile(s: Seen, v: Verifier, old: string, meanwhile: Array<string | undefined>): void {
    const customer = s.mapped.pathParams.customerId!;
    const st = this.fold.phone(customer);
    const numbers = this.fold.mayBeOnRecord(customer);
    if (st === undefined || numbers === undefined) return;
    if (!meanwhile.every((n): n is string => n !== undefined)) return;
    if (![...numbers, ...meanwhile].every((n) => certainlyDifferent(old, n))) return;
    const why =
      `oldPhoneNumber ${old} is not the number on record (${st.number} ${shownBy(st)}), ` +
      'nor any number the updates sent meanwhile may have put there';
    v.verify('OP10-RULE2-OLD-PHONE-MATCH', not_served(s.res, why));
  }

  /**
   * The number an update put on record, named as oldPhoneNumber and refused where the request cannot explain it
   * (refusedForNoReason): the update did not store it (its stored rule), or the target refuses an update that rule 1
   * or 3 (and, for a LOGIN_ID customer, its userIdType) says it serves.
   */
  private storedNumberRefused(s: Seen, v: Verifier, st: NumberOnRecord): void {
    if (!refusedForNoReason(s)) return;
    const rule = this.ruleOf(st);
    const did =
      st.how === 'kept'
        ? 'supplied no phoneNumber, so it kept it'
        : rule
          ? 'put it on record'
          : 'named it as old and new number';
    const how = st.by === undefined ? `${st.from}` : `the 2xx update in exchange #${st.by} ${did}`;
    if (rule) v.verify(rule, served(s.res, `oldPhoneNumber ${st.number} is on record: ${how}`));
    onRecordRefused(s, v, how);
  }
}

/** How the log shows the number on record: an exchange, or what the run knows from its configuration. */
const shownBy = (st: NumberOnRecord) =>
  st.by === undefined ? `as ${st.from}` : `since the 2xx update in exchange #${st.by}`;

/** An update naming the number on record (as `how` shows), refused where the request cannot explain it. */
function onRecordRefused(s: Seen, v: Verifier, how: string): void {
  if (!refusedForNoReason(s)) return;
  const body = bodyOf(s);
  const why = `oldPhoneNumber ${body.phoneNumber.oldPhoneNumber} is the number on record (${how})`;
  const rule = suppliedRule(suppliedObjects(body));
  if (rule) v.verify(rule, served(s.res, why));
  if (body.userIdType !== 'LOGIN_ID') return;
  v.verify('OP10-USERIDTYPE-LOGIN-ID', served(s.res, `${why}, userIdType LOGIN_ID`));
}

/** The URL of a customer's update with a version segment before its customers segment (/v1/customers/…). */
function versioned(url: string): RegExp | undefined {
  try {
    const u = new URL(url);
    const at = u.pathname.lastIndexOf('/customers/');
    if (at < 0) return undefined;
    const esc = (t: string) => t.replace(/[.*+?^$()|[\]\\{}]/g, '\\$&');
    return new RegExp(`^${esc(u.origin + u.pathname.slice(0, at))}/v\\d+${esc(u.pathname.slice(at))}$`);
  } catch {
    return undefined;
  }
}

/**
 * OP10-PATH on a 404 at the documented path ("no such path" or "no such customer"): the log shows the
 * same customer's update served with a version segment ("The contact update path carries no version
 * segment"), so the customer is on record and the documented path is not the operation's.
 */
export function versionedPath(log: Seen[], verifierFor: (index: number) => Verifier): void {
  const updates = log.filter((s) => s.mapped.operation === 'updateContactInfo');
  for (const s of updates) {
    if (s.x.status !== 404) continue;
    const re = versioned(s.x.url);
    const at = re && updates.find((o) => outcomeOf(o.x.status) === 'applied' && re.test(o.x.url.split('?')[0]!));
    if (at) verifierFor(s.x.index).verify('OP10-PATH', operation_found(s.res, `{baseUrl}${DOCUMENTED_PATH}`, at.res));
  }
}
