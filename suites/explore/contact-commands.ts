import fc from 'fast-check';
import {
  customerName,
  STALE,
  type Codes,
  type ContactSequence,
  type Other,
  type Stale,
  type To,
} from './contact-sequence';

/**
 * The explorer's commands on a customer's contact data (operation 10), for fast-check's model-based runs. The
 * model is the sequence's state fold (the number the log says is on record); a command's precondition reads it,
 * its run sends the update. What the target should answer is never decided here: the rules of harness/rules/
 * judge the whole log (rule 2 reads back every accepted change: the next update names the number as old).
 */

export interface ContactModel {
  seq: ContactSequence;
}
type Cmd = fc.AsyncCommand<ContactModel, ContactSequence>;

const known = (m: ContactModel, k: number) => m.seq.phone(k) !== undefined;

/** A phone update alone from the number on record: to a new number or the same one, with or without country codes. */
class Phone implements Cmd {
  constructor(
    readonly k: number,
    readonly to: To,
    readonly codes: Codes,
  ) {}
  check = (m: ContactModel) => known(m, this.k) && !(this.to === 'same' && this.codes === 'other');
  run = (_m: ContactModel, r: ContactSequence) => r.phoneAlone(this.k, this.to, this.codes);
  toString = () => `phone ${customerName(this.k)} ${this.to} ${this.codes} codes`;
}

/** Rule 3: all three objects, the phone to a new number or the same. */
class AllThree implements Cmd {
  constructor(
    readonly k: number,
    readonly to: To,
  ) {}
  check = (m: ContactModel) => m.seq.ground.other && known(m, this.k);
  run = (_m: ContactModel, r: ContactSequence) => r.allThree(this.k, this.to);
  toString = () => `all three ${customerName(this.k)} ${this.to}`;
}

/** The e-mail address, the postal address or both, without the phone number. */
class OtherObjects implements Cmd {
  constructor(
    readonly k: number,
    readonly what: Other,
  ) {}
  check = (m: ContactModel) => m.seq.ground.other;
  run = (_m: ContactModel, r: ContactSequence) => r.other(this.k, this.what);
  toString = () => `${this.what} ${customerName(this.k)}`;
}

/** A phone change naming as oldPhoneNumber a number not on record (stale, a near variant, another customer's). */
class StaleOld implements Cmd {
  constructor(
    readonly k: number,
    readonly how: Stale,
    readonly otherCountry = false,
  ) {}
  check = (m: ContactModel) => known(m, this.k) && m.seq.staleNumber(this.k, this.how) !== undefined;
  run = (_m: ContactModel, r: ContactSequence) => r.stale(this.k, this.how, this.otherCountry);
  toString = () => `stale ${customerName(this.k)} ${this.how}${this.otherCountry ? ' other country code' : ''}`;
}

/**
 * Every command, with every value the spec shows, on `customers` customers. Phone changes are listed five times
 * (fast-check picks among the arbitraries evenly): sequences reach several changes of the same customer.
 */
export function contactCommandArbitraries(customers: number): fc.Arbitrary<Cmd>[] {
  const k = fc.nat({ max: customers - 1 });
  const to = fc.constantFrom<To>('new', 'same');
  // A change to a new number twice as often as to the same one (a write that changes nothing).
  const toMostlyNew = fc.constantFrom<To>('new', 'new', 'same');
  const phone = fc.tuple(k, toMostlyNew, fc.constantFrom<Codes>('with', 'without', 'other'));
  const change = phone.map(([a, t, c]): Cmd => new Phone(a, t, c));
  return [
    change,
    change,
    change,
    change,
    change,
    fc.tuple(k, to).map(([a, t]): Cmd => new AllThree(a, t)),
    fc.tuple(k, fc.constantFrom<Other>('email', 'postal', 'both')).map(([a, w]): Cmd => new OtherObjects(a, w)),
    fc.tuple(k, fc.constantFrom(...STALE), fc.boolean()).map(([a, h, o]): Cmd => new StaleOld(a, h, o)),
  ];
}

/**
 * The tour run before the random sequences: each update without the phone (e-mail alone, postal address alone, both,
 * then all three, read back by a phone change from its number) followed at once by a phone change naming a number
 * not on record, on each customer. Rule 2 holds
 * after every kind of write, not only after a phone change: a target that skips the check after some writes shows
 * here, where random sequences reach that pair rarely.
 */
export function contactTours(customers: number): Cmd[][] {
  return Array.from({ length: Math.min(customers, 2) }, (_, k) => [
    new OtherObjects(k, 'email'),
    new StaleOld(k, 'last-digit'),
    new OtherObjects(k, 'postal'),
    new StaleOld(k, 'shorter'),
    new OtherObjects(k, 'both'),
    new StaleOld(k, 'longer'),
    new AllThree(k, 'new'),
    new Phone(k, 'new', 'with'),
    new StaleOld(k, 'previous'),
  ]);
}
