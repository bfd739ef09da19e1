import { json, type Req, type Res } from '../http';
import type { Customer } from '../state';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The fourth hold-out set's faults of operations 8–10 (reference-target/faults/holdout4-others.ts). */

export function holdout4Revoke(ctx: AreaContext) {
  const f = ctx.fault;
  return async (req: Req, next: Next): Promise<Res> => {
    const answer = await next();
    // The error filter of the gateway answers a refused secret key in its own short form.
    if (answer.status === 401 && req.headers['authorization'] && f('ho4-op8-wrong-secret-401-code-only'))
      return json(401, { code: 'AUTH_INVALID' });
    if (!served(answer)) return answer;
    // Content negotiation without an Accept header picks no representation: an empty 200.
    if (req.headers['accept'] === undefined && f('ho4-op8-no-accept-empty-200')) return { status: 200 };
    const body = isJson(req.body) ? req.body : undefined;
    const record = answer.body;
    // With scopes, the lifetime comes from the scope table, a number column.
    if (body?.scopes !== undefined && isJson(record) && f('ho4-op8-scopes-expires-in-number'))
      record.expires_in = Number(record.expires_in) || 0;
    return answer;
  };
}

export function holdout4Transfer(ctx: AreaContext) {
  const f = ctx.fault;
  return async (req: Req, next: Next): Promise<Res> => {
    const answer = await next();
    const t = answer.body;
    if (!served(answer) || !isJson(t)) return answer;
    const sent = isJson(req.body) && isJson(req.body.schedule) ? req.body.schedule : undefined;
    const s = isJson(t.schedule) ? t.schedule : undefined;
    // The end-date schedule is computed by a calendar service that answers instants.
    if (sent?.lifeType === 'ENDDATE' && sent.endDate !== undefined && s && typeof s.nextExecutionDate === 'string')
      if (f('ho4-op9-end-date-schedule-date-time')) s.nextExecutionDate = `${s.nextExecutionDate}T00:00:00Z`;
    const amount = isJson(t.amount) ? t.amount : undefined;
    // Amounts of seven digits or more go through a big-decimal path that serialises as text.
    if (typeof amount?.amount === 'number' && amount.amount >= 1_000_000 && f('ho4-op9-large-amount-string'))
      amount.amount = String(amount.amount);
    // A one-element list is unwrapped by the serializer.
    if (s && Array.isArray(s.daysOfMonth) && s.daysOfMonth.length === 1 && f('ho4-op9-single-day-of-month-integer'))
      s.daysOfMonth = s.daysOfMonth[0];
    if (t.previousYearContribution === false && f('ho4-op9-previous-year-false-string'))
      t.previousYearContribution = 'false';
    return answer;
  };
}

export function holdout4Contact(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  /** ho4-op10-change-back-not-stored: the numbers each customer held before the one on record. */
  const held = new Map<Customer, Set<string>>();
  return async (req: Req, next: Next): Promise<Res> => {
    const c = state.customers.get(req.params.customerId!);
    const b = isJson(req.body) ? req.body : undefined;
    const p = isJson(b?.phoneNumber) ? b.phoneNumber : undefined;
    if (!c || !b || !p) return next();
    const was = { phoneNumber: c.phoneNumber, countryCode: c.countryCode };
    const snapshot = { ...c, postalAddress: c.postalAddress && { ...c.postalAddress } };
    // The e-mail branch of the handler skips the comparison with the number on record.
    const withEmail = b.email !== undefined && b.postalAddress === undefined;
    if (withEmail && typeof p.oldPhoneNumber === 'string' && f('ho4-op10-old-number-unchecked-with-email'))
      p.oldPhoneNumber = c.phoneNumber;
    const answer = await next();
    if (!served(answer)) return answer;
    const codeLost = f('ho4-op10-phone-with-postal-country-code-lost');
    // This target keeps the country code and compares oldCountryCode too (as op10-old-country-code-checked): the
    // only way a client can see the code it stores.
    if (codeLost && typeof p.oldCountryCode === 'string' && p.oldCountryCode !== was.countryCode) {
      Object.assign(c, snapshot);
      return json(409, { error: 'conflict', message: 'oldCountryCode does not match the country code on record' });
    }
    const withPostal = b.postalAddress !== undefined && b.email === undefined;
    if (withPostal && codeLost) c.countryCode = was.countryCode;
    if (c.phoneNumber === was.phoneNumber) return answer;
    const before = held.get(c) ?? new Set<string>();
    held.set(c, before);
    // A history table with a unique number per customer: a number held before is not written again.
    if (before.has(c.phoneNumber) && f('ho4-op10-change-back-not-stored')) Object.assign(c, was);
    else before.add(was.phoneNumber);
    return answer;
  };
}
