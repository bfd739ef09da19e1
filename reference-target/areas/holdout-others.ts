import { REFERENCE_CREDENTIALS } from '../fixtures';
import { json, type Req, type Res } from '../http';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The hold-out faults of operations 8–10 (reference-target/faults/holdout-others.ts). */

const { revocationClientId, revocationClientSecret } = REFERENCE_CREDENTIALS;
const BASIC = `Basic ${Buffer.from(`${revocationClientId}:${revocationClientSecret}`).toString('base64')}`;

export function holdoutRevoke(ctx: AreaContext) {
  const f = ctx.fault;
  return async (req: Req, next: Next): Promise<Res> => {
    const auth = req.headers['authorization'] ?? '';
    if (f('ho-op8-accepts-bearer') && /^Bearer\s+\S/i.test(auth)) req.headers['authorization'] = BASIC;
    const basic = /^Basic\s+(.+)$/i.exec(auth)?.[1];
    if (basic && f('ho-op8-secret-first-8')) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const secret = decoded.slice(decoded.indexOf(':') + 1);
      if (decoded.startsWith(`${revocationClientId}:`) && secret.slice(0, 8) === revocationClientSecret.slice(0, 8))
        req.headers['authorization'] = BASIC;
    }
    if (f('ho-op8-missing-institution-id-ok') && req.headers['institutionid'] === undefined)
      req.headers['institutionid'] = '1001';
    const answer = await next();
    const body = answer.body;
    if (!isJson(body)) return answer;
    if (answer.status === 401 && isJson(body.errorInfo) && f('ho-op8-401-error-code-number'))
      body.errorInfo.errorCode = 401;
    const scopes = isJson(req.body) ? req.body.scopes : undefined;
    if (answer.status === 200 && f('ho-op8-expires-number-with-scopes') && typeof scopes === 'string' && scopes)
      body.expires_in = Number(body.expires_in);
    return answer;
  };
}

export function holdoutTransfer(ctx: AreaContext) {
  const f = ctx.fault;
  return async (req: Req, next: Next): Promise<Res> => {
    const answer = await next();
    const t = answer.body;
    if (answer.status === 401 && !req.headers['authorization'] && f('ho-op9-403-unauthenticated'))
      return { ...answer, status: 403 };
    if (!isJson(t)) return answer;
    if (answer.status === 400 && f('ho-op9-400-code-number')) t.code = 400;
    if (!served(answer)) return answer;
    const amount = isJson(t.amount) ? t.amount : undefined;
    if (f('ho-op9-amount-string-decimals') && typeof amount?.amount === 'number' && !Number.isInteger(amount.amount))
      amount.amount = amount.amount.toFixed(2);
    const s = isJson(t.schedule) ? t.schedule : undefined;
    if (s && f('ho-op9-dates-dmy'))
      for (const k of ['startDate', 'endDate', 'nextExecutionDate', 'finalExecutionDate'])
        if (typeof s[k] === 'string') s[k] = s[k].split('-').reverse().join('-');
    if (s && f('ho-op9-days-as-strings') && Array.isArray(s.daysOfMonth)) s.daysOfMonth = s.daysOfMonth.map(String);
    return answer;
  };
}

export function holdoutContact(ctx: AreaContext) {
  const { state } = ctx;
  const f = ctx.fault;
  const initialPhones = new Map([...state.customers].map(([id, c]) => [id, c.phoneNumber]));
  /** Make the check of oldPhoneNumber compare with `against` instead of the number on record. */
  const compareWith = (p: Record<string, any>, onRecord: string, against: string | undefined) => {
    if (against === undefined || against === onRecord) return;
    if (p.oldPhoneNumber === against) p.oldPhoneNumber = onRecord;
    else if (p.oldPhoneNumber === onRecord) p.oldPhoneNumber = '\u0000';
  };
  return async (req: Req, next: Next): Promise<Res> => {
    const id = req.params.customerId!;
    const c = state.customers.get(id);
    const b = isJson(req.body) ? req.body : undefined;
    const p = isJson(b?.phoneNumber) ? b.phoneNumber : undefined;
    if (c && p && typeof p.oldPhoneNumber === 'string') {
      // A cached copy: oldPhoneNumber compared with the number the customer had when the service started.
      if (f('ho-op10-old-phone-stale')) compareWith(p, c.phoneNumber, initialPhones.get(id));
      // A change of country is "validated later": the old number is not compared.
      if (f('ho-op10-new-country-skips-check') && p.newCountryCode !== undefined && p.newCountryCode !== c.countryCode)
        p.oldPhoneNumber = c.phoneNumber;
      // The customer looked up once: oldPhoneNumber compared with the first customer's number.
      const first = [...state.customers.values()][0];
      if (f('ho-op10-checks-first-customer') && first && first !== c) compareWith(p, c.phoneNumber, first.phoneNumber);
    }
    const answer = await next();
    // A replace instead of an update: the e-mail alone clears the phone number.
    const emailAlone = b !== undefined && isJson(b.email) && !p && b.postalAddress === undefined;
    if (c && served(answer) && emailAlone && f('ho-op10-email-alone-clears-phone')) c.phoneNumber = '';
    if (served(answer) && b?.userIdType === 'LOGIN_ID' && f('ho-op10-200-login-id'))
      return json(200, { updated: true });
    return answer;
  };
}
