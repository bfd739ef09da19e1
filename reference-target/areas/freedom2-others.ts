import { REFERENCE_CREDENTIALS } from '../fixtures';
import { json, type Req, type Res } from '../http';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The conformant choices of operations 8–10 of the second set (reference-target/faults/freedom2-variants.ts). */

type Next = (req: Req) => Promise<Res>;

/**
 * Variant fr2-op8-scheme-any-case: the scheme of the Authorization header is read without regard to case ("basic",
 * "BASIC"), as RFC 7235 says of every scheme; the credentials after it are compared as they are.
 */
function schemeRead(req: Req): Req {
  const auth = req.headers['authorization'];
  const m = auth === undefined ? null : /^basic +(.*)$/i.exec(auth);
  return m ? { ...req, headers: { ...req.headers, authorization: `Basic ${m[1]}` } } : req;
}

/** "Authentication record (also returned with the revocation operation; its role: not shown)". */
const AUTHENTICATION_RECORD = {
  userId: 'u-1001-42',
  institutionId: '1001',
  status: 'SECONDARY_AUTHENTICATION_REQUIRED',
  requestChannel: 'WEB',
  privateDevice: false,
  phoneNumbers: { phoneNumber: { id: 'p1', countryCode: '1', number: '5550100', protocol: 'SMS' } },
  validatedEmail: { id: 'e1', address: 'user@example.com' },
  secondaryAuthCookies: { name: 'sac', value: 'opaque', maxAge: 3600 },
  scopes: { scope: { name: 'openid', description: 'sign in' } },
  additionalInfo: { entry: [{ key: 'channel', value: 'web' }] },
};

export function freedom2Revoke(ctx: AreaContext) {
  const f = ctx.fault;
  return async (req: Req, next: Next): Promise<Res> => {
    const answer = await next(f('fr2-op8-scheme-any-case') ? schemeRead(req) : req);
    // Variant fr2-op8-with-auth-record: the Authentication record's members beside the Token record's.
    if (served(answer) && isJson(answer.body) && f('fr2-op8-with-auth-record'))
      answer.body = { ...answer.body, ...AUTHENTICATION_RECORD };
    // Variant fr2-op8-iso-durations: "Units and values of expires_in and refresh_token_expires_in: not shown."
    if (served(answer) && isJson(answer.body) && f('fr2-op8-iso-durations'))
      return { ...answer, body: { ...answer.body, expires_in: 'PT1H', refresh_token_expires_in: 'P30D' } };
    return answer;
  };
}

const DAILY_LIMIT = 2_000_000;
const round2 = (n: number) => Math.round(n * 100) / 100;

/** What a strict vendor refuses of a transfer (400, code and message); the conditions of a 400 are not shown. */
function transferRefusal(ctx: AreaContext, b: Record<string, any>, spent: Map<string, number>): Res | undefined {
  const s = isJson(b.schedule) ? b.schedule : undefined;
  // Variant fr2-op9-schedule-dow-0-6: "the numbering of dayOfWeek: not shown": 0 Sunday to 6 Saturday.
  if (s && ctx.fault('fr2-op9-schedule-dow-0-6') && s.dayOfWeek !== undefined)
    if (!(Number.isInteger(s.dayOfWeek) && s.dayOfWeek >= 0 && s.dayOfWeek <= 6))
      return json(400, { code: 'INVALID_SCHEDULE', message: 'dayOfWeek is 0 (Sunday) to 6 (Saturday)' });
  const amount = isJson(b.amount) && typeof b.amount.amount === 'number' ? b.amount.amount : 0;
  const account = String(b.fromAccountId ?? '');
  // Variant fr2-op9-daily-limit: what one account may send in a day ("size limits: not shown").
  if (ctx.fault('fr2-op9-daily-limit') && (spent.get(account) ?? 0) + amount > DAILY_LIMIT)
    return json(400, { code: 'DAILY_LIMIT_EXCEEDED', message: `at most ${DAILY_LIMIT} a day from one account` });
  return undefined;
}

/** The Transfer answered, as the set's answer variants make it. */
function answered(ctx: AreaContext, body: Record<string, any>): Record<string, any> {
  const out = { ...body };
  // Variant fr2-op9-pending-status: "Transfer status: One value, SUCCESS, is shown. Other values …: not shown."
  if (ctx.fault('fr2-op9-pending-status')) out.status = 'PENDING';
  // Variant fr2-op9-rounds-amounts: the amount in the currency's minor unit, a fee of 0 where none was charged.
  if (ctx.fault('fr2-op9-rounds-amounts')) {
    if (isJson(out.amount) && typeof out.amount.amount === 'number')
      out.amount = { ...out.amount, amount: round2(out.amount.amount) };
    if (out.fee === undefined) out.fee = { currencyCode: out.amount?.currencyCode ?? 'AED', amount: 0 };
  }
  return out;
}

export function freedom2Transfer(ctx: AreaContext) {
  const spent = new Map<string, number>();
  return async (req: Req, next: Next): Promise<Res> => {
    const token = /^Bearer\s+(.+)$/i.exec(req.headers['authorization'] ?? '')?.[1];
    const trusted = token === REFERENCE_CREDENTIALS.transfersToken && isJson(req.body);
    const b = isJson(req.body) ? req.body : {};
    const refused = trusted ? transferRefusal(ctx, b, spent) : undefined;
    if (refused) return refused;
    const answer = await next(req);
    if (!served(answer) || !isJson(answer.body)) return answer;
    if (isJson(b.amount) && typeof b.amount.amount === 'number') {
      const account = String(b.fromAccountId ?? '');
      spent.set(account, (spent.get(account) ?? 0) + b.amount.amount);
    }
    return { ...answer, body: answered(ctx, answer.body) };
  };
}

/** Postal codes as each country writes them (variant fr2-op10-postal-formats); other countries: any. */
const POSTAL_CODES: Record<string, RegExp> = {
  US: /^\d{5}(-\d{4})?$/,
  DE: /^\d{5}$/,
  FR: /^\d{5}$/,
  IN: /^\d{6}$/,
  AU: /^\d{4}$/,
  CA: /^[A-Z]\d[A-Z] ?\d[A-Z]\d$/i,
  GB: /^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i,
  NL: /^\d{4} ?[A-Z]{2}$/i,
  JP: /^\d{3}-?\d{4}$/,
};
const LENGTHS: Array<[string, string, number]> = [
  ['postalAddress', 'address1', 35],
  ['postalAddress', 'address2', 35],
  ['postalAddress', 'city', 35],
  ['postalAddress', 'state', 35],
  ['postalAddress', 'postalCode', 10],
  ['email', 'emailAddress', 64],
];

function contactRefusal(ctx: AreaContext, b: Record<string, any>): Res | undefined {
  const f = ctx.fault;
  // Variant fr2-op10-field-lengths: the lengths a core banking record keeps ("size limits: not shown").
  const long = f('fr2-op10-field-lengths')
    ? LENGTHS.find(([o, m, n]) => isJson(b[o]) && typeof b[o][m] === 'string' && b[o][m].length > n)
    : undefined;
  if (long)
    return json(
      422,
      { type: 'about:blank', title: 'Too long', status: 422, detail: `${long[1]} is longer than ${long[2]}` },
      { 'content-type': 'application/problem+json' },
    );
  // Variant fr2-op10-postal-formats: a postal code not written as its country writes them is refused (400).
  const p = isJson(b.postalAddress) ? b.postalAddress : undefined;
  const format = f('fr2-op10-postal-formats') && p ? POSTAL_CODES[String(p.country ?? '').toUpperCase()] : undefined;
  if (format && !(typeof p!.postalCode === 'string' && format.test(p!.postalCode)))
    return json(400, { error: 'invalid_postal_code', message: `not a postal code of ${p!.country}` });
  return undefined;
}

export function freedom2Contact(ctx: AreaContext) {
  return async (req: Req, next: Next): Promise<Res> => {
    const token = /^Bearer\s+(.+)$/i.exec(req.headers['authorization'] ?? '')?.[1];
    const known = token !== undefined && ctx.state.bearerUsers.has(token);
    return (known ? contactRefusal(ctx, isJson(req.body) ? req.body : {}) : undefined) ?? next(req);
  };
}
