import type { Exchange } from '../model';

/**
 * The controls of configured phone numbers (operation 10, rule 2; docs/diagnosis.md). The control of a number is an
 * update that names it as old and new (it changes nothing) and relies on it: the proof before the first write
 * (suites/contact-info/_prove-before-write.ts), the control after a refused update. Refused before any write of the
 * customer was served, it disproves the number: nothing the run did can have moved it, so the configured number is
 * not on record, and every refusal relying on it is the operator's (could not test, naming the key). A refusal of a
 * number no such control disproved is the target's: a write may have moved it (an update that supplied only the
 * e-mail, on a target that replaces instead of updating), so the failure stands, with the number it rests on named.
 * A number a control proved (served) is never blamed at all (harness/setup/proof.ts).
 */

/** A configured phone number's key (testData.customer.phoneNumber, testData.moreCustomers[2].phoneNumber). */
export const isPhoneKey = (key: string): boolean =>
  /^testData\.(customer|moreCustomers\[\d+\])\.phoneNumber$/.test(key);

/** The request names one number as old and new: it changes nothing. */
export function changesNothing(e: Exchange): boolean {
  if (e.operation !== 'updateContactInfo') return false;
  try {
    const p = (JSON.parse(e.request.body ?? '') as { phoneNumber?: Record<string, unknown> }).phoneNumber;
    return typeof p?.oldPhoneNumber === 'string' && p.oldPhoneNumber === p.newPhoneNumber;
  } catch {
    return false;
  }
}

/** A refusal that says something of the request's data (not of its credentials, path, method or pace). */
const refusesData = (status: number) => status >= 400 && status < 500 && ![401, 403, 404, 405, 429].includes(status);

/** The path of an exchange's URL: one customer's updates share it. */
function pathOf(e: Exchange): string {
  try {
    return new URL(e.request.url).pathname;
  } catch {
    return e.request.url;
  }
}

export class PhoneControls {
  /** Refused controls: the phone keys each relies on, with its path and place in the run. */
  private readonly refused: Array<{ seq: number; path: string; keys: string[] }> = [];
  /** The first served (2xx) update of each customer path, by sequence number. */
  private readonly firstWrite = new Map<string, number>();
  private disproven?: Set<string>;

  /** Take in an answered exchange (in any order). */
  observe(e: Exchange): void {
    const status = e.response?.status ?? 0;
    if (e.operation !== 'updateContactInfo') return;
    this.disproven = undefined;
    const path = pathOf(e);
    if (status >= 200 && status < 300 && e.seq < (this.firstWrite.get(path) ?? Infinity))
      this.firstWrite.set(path, e.seq);
    const keys = (e.relies ?? []).filter(isPhoneKey);
    if (keys.length && refusesData(status) && changesNothing(e)) this.refused.push({ seq: e.seq, path, keys });
  }

  /** A control disproved the number before any write of the customer was served. */
  private disprovenKeys(): Set<string> {
    this.disproven ??= new Set(
      this.refused.filter((c) => c.seq < (this.firstWrite.get(c.path) ?? Infinity)).flatMap((c) => c.keys),
    );
    return this.disproven;
  }

  /** A refusal relying on `key` stands as the target's: it is a phone number no control disproved. */
  standsOn(key: string): boolean {
    return isPhoneKey(key) && !this.disprovenKeys().has(key);
  }
}

/** "setup: …" for a failure that stands on a configured phone number no control disproved. */
export function phoneRestsOn(e: Exchange, key: string): string {
  const others = (e.relies ?? []).filter((k) => k !== key);
  return (
    `setup: judged as the target's (no update that changes nothing refused ${key} before a write of the customer ` +
    `was served, so the number was never disproven, and an accepted update may have moved it); it rests on ${key}` +
    (others.length ? `, ${others.join(', ')}` : '')
  );
}
