/**
 * One equality of phone numbers (issue 32), for the rules, the contact fold, the drivers and the explorer.
 *
 * Operation 10, rule 2: "oldPhoneNumber is required and must match the phone number on record". What "match"
 * means beyond the same text is not shown: a target may compare the text as sent, or only its digits (spaces,
 * dashes, a country code written before the number ignored). Both are reasonable, so a number stands to the one on
 * record in one of three ways:
 * - `sameNumber`: the same text. It matches on every reasonable target: one named as oldPhoneNumber is accepted.
 * - `certainlyDifferent`: other digits, neither the other with a prefix. It matches on no reasonable target: one
 *   named as oldPhoneNumber is refused.
 * - neither (the same digits written otherwise, or with a country code before them): either answer is accepted.
 */

/** The same phone number: the same text. */
export const sameNumber = (a: string, b: string): boolean => a === b;

const digits = (s: string) => s.replace(/\D/g, '');

/** Two numbers no reasonable comparison matches (not the same digits written otherwise, nor one with a country code
 * prefixed). */
export function certainlyDifferent(a: string, b: string): boolean {
  const x = digits(a);
  const y = digits(b);
  if (x === '' || y === '') return a.trim() !== b.trim();
  return x !== y && !x.endsWith(y) && !y.endsWith(x);
}

/** A phone: the number and its country code. */
export interface Phone {
  number: string;
  /** "" where none is known or sent (the target keeps its own). */
  countryCode: string;
}

/** The same phone: the same number and the same country code. */
export const samePhone = (a: Phone, b: Phone): boolean =>
  sameNumber(a.number, b.number) && a.countryCode === b.countryCode;
