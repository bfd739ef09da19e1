import { REFERENCE_CREDENTIALS } from '../fixtures';
import { json, type Req, type Res } from '../http';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The second hold-out set's faults of operations 8–10 (reference-target/faults/holdout2-others.ts). */

const { revocationClientId, revocationClientSecret } = REFERENCE_CREDENTIALS;
const BASIC = `Basic ${Buffer.from(`${revocationClientId}:${revocationClientSecret}`).toString('base64')}`;

export function holdout2Revoke(ctx: AreaContext) {
  const f = ctx.fault;
  return async (req: Req, next: Next): Promise<Res> => {
    const basic = /^Basic\s+(.+)$/i.exec(req.headers['authorization'] ?? '')?.[1];
    // The shared key looked up, the secret key never compared.
    if (basic && f('ho2-op8-checks-shared-key-only')) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      if (decoded.startsWith(`${revocationClientId}:`)) req.headers['authorization'] = BASIC;
    }
    if (f('ho2-op8-missing-transaction-id-ok') && req.headers['transactionid'] === undefined)
      req.headers['transactionid'] = 'generated';
    const answer = await next();
    const b = answer.body;
    const token = isJson(req.body) ? req.body.refresh_token : undefined;
    if (answer.status === 200 && isJson(b) && f('ho2-op8-refresh-expiry-number') && typeof token === 'string' && token)
      b.refresh_token_expires_in = Number(b.refresh_token_expires_in) || 0;
    return answer;
  };
}

export function holdout2Transfer(ctx: AreaContext) {
  const f = ctx.fault;
  /** ho2-op9-authorization-cached: the last Authorization a transfer was served with. */
  let lastAuthorization: string | undefined;
  return async (req: Req, next: Next): Promise<Res> => {
    if (!req.headers['authorization'] && lastAuthorization && f('ho2-op9-authorization-cached'))
      req.headers['authorization'] = lastAuthorization;
    const answer = await next();
    if (f('op9-refuses-unshown-values') && unshownValue(req)) return refusedUnshown(answer);
    if (served(answer)) lastAuthorization = req.headers['authorization'];
    const t = answer.body;
    if (!isJson(t)) return answer;
    if (answer.status === 401 && f('ho2-op9-401-token-error-shape'))
      return json(401, {
        statusMessage: 'Unauthorized',
        errorInfo: { errorType: 'USER_ERROR', errorCode: String(t.code), errorMessage: String(t.message) },
      });
    if (!served(answer)) return answer;
    if (t.previousYearContribution === true && f('ho2-op9-previous-year-true-string'))
      t.previousYearContribution = 'true';
    const s = isJson(t.schedule) ? t.schedule : undefined;
    if (s && Array.isArray(s.daysOfMonth) && s.daysOfMonth.length > 1 && f('ho2-op9-several-days-as-strings'))
      s.daysOfMonth = s.daysOfMonth.map(String);
    if (
      s &&
      s.endDate !== undefined &&
      typeof s.finalExecutionDate === 'string' &&
      f('ho2-op9-final-date-time-with-end')
    )
      s.finalExecutionDate = `${s.finalExecutionDate}T23:59:59Z`;
    const fee = isJson(t.fee) ? t.fee : undefined;
    if (fee && fee.currencyCode !== 'AED' && typeof fee.amount === 'number' && f('ho2-op9-fee-string-other-currency'))
      fee.amount = fee.amount.toFixed(2);
    return answer;
  };
}

/**
 * Variant op9-refuses-unshown-values: a transfer in a currency other than the one shown (AED) or with
 * previousYearContribution true is refused (400), once its credentials passed: "Value sets of currencyCode, … beyond
 * the values listed, …: not shown", and the conditions of a 400 are not shown.
 */
function unshownValue(req: Req): boolean {
  const b = isJson(req.body) ? req.body : undefined;
  const currency = isJson(b?.amount) ? b.amount.currencyCode : undefined;
  return (currency !== undefined && currency !== 'AED') || b?.previousYearContribution === true;
}
const refusedUnshown = (answer: Res): Res =>
  served(answer)
    ? json(400, { code: 'UNSUPPORTED_VALUE', message: 'only AED transfers without a prior-year contribution' })
    : answer;

export function holdout2Contact(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  /** ho2-op10-unchecked-after-email: the customers whose e-mail address changed alone last. */
  const emailedAlone = new Set<string>();
  return async (req: Req, next: Next): Promise<Res> => {
    const id = req.params.customerId!;
    const c = state.customers.get(id);
    const b = isJson(req.body) ? req.body : undefined;
    const p = isJson(b?.phoneNumber) ? b.phoneNumber : undefined;
    if (b?.userIdType === 'LOGIN_ID' && f('ho2-op10-login-id-refused'))
      return json(400, { error: 'bad_request', message: 'userIdType must be CUSTOMER_ID' });
    if (c && p && typeof p.oldPhoneNumber === 'string') {
      const old = p.oldPhoneNumber;
      if (f('ho2-op10-old-phone-prefix') && old.length > 0 && c.phoneNumber.startsWith(old))
        p.oldPhoneNumber = c.phoneNumber;
      if (f('ho2-op10-unchecked-after-email') && emailedAlone.has(id)) p.oldPhoneNumber = c.phoneNumber;
    }
    const answer = await next();
    if (!served(answer)) return answer;
    const only = (k: string) =>
      b !== undefined && ['phoneNumber', 'email', 'postalAddress'].every((o) => (o === k) === !!b[o]);
    if (only('email')) emailedAlone.add(id);
    else if (p) emailedAlone.delete(id);
    if (only('postalAddress') && f('ho2-op10-postal-alone-200')) return json(200, { updated: ['postalAddress'] });
    return answer;
  };
}
