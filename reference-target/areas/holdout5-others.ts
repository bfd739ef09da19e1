import type { Req, Res } from '../http';
import type { Customer } from '../state';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The fifth hold-out set's faults of operations 8–10 (reference-target/faults/holdout5-others.ts). */

const basicKey = (auth: string | undefined): string | undefined => {
  const m = /^Basic\s+(.*)$/i.exec(auth ?? '');
  return m ? Buffer.from(m[1]!, 'base64').toString('utf8').split(':')[0] : undefined;
};

export function holdout5Revoke(ctx: AreaContext) {
  const f = ctx.fault;
  /** ho5-op8-repeat-revoke-numeric-expiry: the refresh tokens a revocation was served for. */
  const revoked = new Set<string>();
  /** ho5-op8-cached-key-ignores-secret: the Authorization header last accepted. */
  let accepted: string | undefined;
  return async (req: Req, next: Next): Promise<Res> => {
    const auth = req.headers['authorization'];
    // A credential cache keyed by the shared key alone.
    if (accepted && auth !== accepted && basicKey(auth) !== undefined && basicKey(auth) === basicKey(accepted))
      if (f('ho5-op8-cached-key-ignores-secret')) req.headers['authorization'] = accepted;
    const answer = await next();
    if (!served(answer)) return answer;
    accepted = req.headers['authorization'];
    const token = isJson(req.body) && typeof req.body.refresh_token === 'string' ? req.body.refresh_token : undefined;
    if (token === undefined) return answer;
    const again = revoked.has(token);
    revoked.add(token);
    const record = answer.body;
    if (again && isJson(record) && f('ho5-op8-repeat-revoke-numeric-expiry'))
      record.expires_in = Number(record.expires_in) || 0;
    return answer;
  };
}

export function holdout5Transfer(ctx: AreaContext) {
  const f = ctx.fault;
  let count = 0;
  /** ho5-op9-unauthenticated-after-success: the Authorization header of the last accepted transfer. */
  let accepted: string | undefined;
  return async (req: Req, next: Next): Promise<Res> => {
    // A session kept by the gateway after the first accepted call.
    if (req.headers['authorization'] === undefined && accepted && f('ho5-op9-unauthenticated-after-success'))
      req.headers['authorization'] = accepted;
    const answer = await next();
    const t = answer.body;
    if (!served(answer) || !isJson(t)) return answer;
    accepted = req.headers['authorization'];
    count += 1;
    const fee = isJson(t.fee) ? t.fee : undefined;
    if (count >= 2 && typeof fee?.amount === 'number' && f('ho5-op9-second-transfer-fee-string'))
      fee.amount = fee.amount.toFixed(2);
    return answer;
  };
}

export function holdout5Contact(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  const initial = new Map([...state.customers.values()].map((c) => [c, { ...c }]));
  /** ho5-op10-all-three-phone-skipped-second: per customer, the updates served with the three objects. */
  const allThree = new Map<Customer, number>();
  return async (req: Req, next: Next): Promise<Res> => {
    const c = state.customers.get(req.params.customerId!);
    const b = isJson(req.body) ? req.body : undefined;
    if (!c || !b) return next();
    const p = isJson(b.phoneNumber) ? b.phoneNumber : undefined;
    const numbers = [...state.customers.values()].filter((o) => o !== c).map((o) => o.phoneNumber);
    // The number lookup runs over the whole customer table.
    if (p && typeof p.oldPhoneNumber === 'string' && numbers.includes(p.oldPhoneNumber))
      if (f('ho5-op10-phone-keyed-by-number')) p.oldPhoneNumber = c.phoneNumber;
    const was = { phoneNumber: c.phoneNumber, countryCode: c.countryCode };
    const answer = await next();
    if (!served(answer)) return answer;
    const emailOnly = b.email !== undefined && p === undefined && b.postalAddress === undefined;
    const first = initial.get(c);
    if (emailOnly && first && f('ho5-op10-email-only-resets-phone'))
      Object.assign(c, { phoneNumber: first.phoneNumber, countryCode: first.countryCode });
    if (p && b.email !== undefined && b.postalAddress !== undefined) {
      const n = (allThree.get(c) ?? 0) + 1;
      allThree.set(c, n);
      if (n >= 2 && f('ho5-op10-all-three-phone-skipped-second')) Object.assign(c, was);
    }
    return answer;
  };
}
