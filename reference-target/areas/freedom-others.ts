import { REFERENCE_CREDENTIALS } from '../fixtures';
import { json, type Req, type Res } from '../http';
import type { Next } from './holdout';
import { isJson, served } from './holdout-disclosures';
import type { AreaContext } from './types';

/** The conformant choices of operations 8–10 (reference-target/faults/freedom-variants.ts). */

const ERROR_TYPES: Record<number, string> = { 400: 'VALIDATION_ERROR', 401: 'AUTHENTICATION_ERROR' };

export function freedomRevoke(ctx: AreaContext) {
  const f = ctx.fault;
  let issued = 0;
  return async (req: Req, next: Next): Promise<Res> => {
    const answer = await next();
    const body = isJson(req.body) ? req.body : {};
    // Variant fr-op8-refresh-token-required: "Which body fields are required: not shown".
    if (
      served(answer) &&
      f('fr-op8-refresh-token-required') &&
      !(typeof body.refresh_token === 'string' && body.refresh_token)
    )
      return json(400, {
        statusMessage: 'Bad Request',
        errorInfo: {
          errorType: 'USER_ERROR',
          errorCode: 'REFRESH_TOKEN_REQUIRED',
          errorMessage: 'refresh_token is required',
        },
      });
    // Variant fr-op8-other-error-types: "the values of errorType beyond USER_ERROR: not shown".
    if (!served(answer) && f('fr-op8-other-error-types') && isJson(answer.body) && isJson(answer.body.errorInfo)) {
      const errorInfo = { ...answer.body.errorInfo, errorType: ERROR_TYPES[answer.status] ?? 'SYSTEM_ERROR' };
      const challenge: Record<string, string> =
        answer.status === 401 ? { 'www-authenticate': 'Basic realm="oauth2"' } : {};
      return { ...answer, headers: { ...(answer.headers ?? {}), ...challenge }, body: { ...answer.body, errorInfo } };
    }
    // Variant fr-op8-answers-new-tokens: "the response is described with the words token successfully created": a
    // new pair is issued in the place of the one revoked.
    if (served(answer) && f('fr-op8-answers-new-tokens') && isJson(answer.body))
      return {
        ...answer,
        body: { ...answer.body, access_token: `at-${++issued}`, refresh_token: `rt-${issued}`, expires_in: '3600' },
      };
    // Variant fr-op8-revoked-record: the record of a revoked token, its lifetimes "0" and its tokens empty: "Units
    // and values of expires_in and refresh_token_expires_in: not shown."
    if (served(answer) && f('fr-op8-revoked-record') && isJson(answer.body))
      return {
        ...answer,
        body: { ...answer.body, expires_in: '0', refresh_token_expires_in: '0', access_token: '', refresh_token: '' },
      };
    return answer;
  };
}

const TWO_DECIMALS = (a: number) => Math.abs(Math.round(a * 100) - a * 100) < 1e-6;

/**
 * What a strict vendor refuses of a transfer (400, code and message), "The conditions that lead to each status […]:
 * not shown": fr-op9-amount-bounds (an amount not above 0, with more than two decimals, or above a billion);
 * fr-op9-day-numbering-iso ("the numbering of dayOfWeek: not shown": 1 Monday to 7 Sunday; days of the month 1–31).
 */
function transferRefusal(ctx: AreaContext, b: Record<string, any>): string | undefined {
  const amount = b.amount?.amount;
  if (ctx.fault('fr-op9-amount-bounds') && typeof amount === 'number')
    if (!(amount > 0) || amount > 1e9 || !TWO_DECIMALS(amount)) return `amount ${amount} is out of bounds`;
  const s = isJson(b.schedule) ? b.schedule : undefined;
  if (s && ctx.fault('fr-op9-day-numbering-iso')) {
    if (s.dayOfWeek !== undefined && !(Number.isInteger(s.dayOfWeek) && s.dayOfWeek >= 1 && s.dayOfWeek <= 7))
      return 'dayOfWeek is 1 (Monday) to 7 (Sunday)';
    const days = Array.isArray(s.daysOfMonth) ? s.daysOfMonth : [];
    if (days.some((d: unknown) => !(Number.isInteger(d) && (d as number) >= 1 && (d as number) <= 31)))
      return 'daysOfMonth are 1 to 31';
  }
  return undefined;
}

export function freedomTransfer(ctx: AreaContext) {
  const f = ctx.fault;
  /** Variant fr-op9-replays-transaction-id: the first answer to each transactionId, kept as an idempotency key. */
  const replies = new Map<string, Res>();
  return async (req: Req, next: Next): Promise<Res> => {
    const token = /^Bearer\s+(.+)$/i.exec(req.headers['authorization'] ?? '')?.[1];
    const txId = req.headers['transactionid'];
    const trusted = token === REFERENCE_CREDENTIALS.transfersToken && !!txId;
    if (trusted && f('fr-op9-replays-transaction-id') && replies.has(txId!))
      return structuredClone(replies.get(txId!)!);
    const reason = trusted && isJson(req.body) ? transferRefusal(ctx, req.body) : undefined;
    if (reason) return json(400, { code: 'VALIDATION_FAILED', message: reason });
    const answer = await next();
    // Variant fr-op9-scheduled-status: "Transfer status: One value, SUCCESS, is shown. Other values and
    // transitions: not shown." A transfer with a schedule is SCHEDULED until it runs.
    if (served(answer) && isJson(answer.body) && isJson(req.body) && isJson(req.body.schedule))
      if (f('fr-op9-scheduled-status')) answer.body = { ...answer.body, status: 'SCHEDULED' };
    if (served(answer) && trusted && f('fr-op9-replays-transaction-id')) replies.set(txId!, structuredClone(answer));
    return answer;
  };
}

const digits = (s: unknown) => (typeof s === 'string' ? s.replace(/\D/g, '') : '');
const CONTACT_OBJECTS = ['phoneNumber', 'email', 'postalAddress'];

/** Variant fr-op10-errors-html: 401 with a challenge and no body; a phone refused 409 in HTML; else 400, no body. */
function contactRefusal(answer: Res, b: Record<string, any>): Res {
  if (answer.status === 401) return { status: 401, headers: { 'www-authenticate': 'Bearer' } };
  if (b.phoneNumber !== undefined && answer.status === 400)
    return {
      status: 409,
      headers: { 'content-type': 'text/html' },
      body: '<html><body><h1>409 Conflict</h1><p>The phone number was not changed.</p></body></html>',
    };
  return { status: answer.status };
}

/**
 * Variant fr-op10-validates-values: a new number that is not 7 to 15 digits, an e-mail address without "@" and a
 * dot after it, or a country that is not two capital letters is refused (400). "Errors of the contact update
 * operation: not shown."
 */
function invalidValue(b: Record<string, any>): string | undefined {
  const n = isJson(b.phoneNumber) ? b.phoneNumber.newPhoneNumber : undefined;
  if (typeof n === 'string' && !/^\d{7,15}$/.test(n)) return 'newPhoneNumber must be 7 to 15 digits';
  const e = isJson(b.email) ? b.email.emailAddress : undefined;
  if (typeof e === 'string' && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(e)) return 'emailAddress is not an e-mail address';
  const c = isJson(b.postalAddress) ? b.postalAddress.country : undefined;
  if (typeof c === 'string' && !/^[A-Z]{2}$/.test(c)) return 'country is an ISO 3166 code';
  return undefined;
}

export function freedomContact(ctx: AreaContext) {
  const f = ctx.fault;
  return async (req: Req, next: Next): Promise<Res> => {
    const b = isJson(req.body) ? req.body : {};
    const customer = ctx.state.customers.get(req.params.customerId ?? '');
    // Variant fr-op10-digits-match: rule 2's "must match" compares the digits only (docs/contact-state.md).
    const phone = isJson(b.phoneNumber) ? b.phoneNumber : undefined;
    const old = phone?.oldPhoneNumber;
    if (f('fr-op10-digits-match') && customer && phone && digits(old) && digits(old) === digits(customer.phoneNumber))
      phone.oldPhoneNumber = customer.phoneNumber;
    const invalid = f('fr-op10-validates-values') ? invalidValue(b) : undefined;
    let answer = invalid ? json(400, { error: invalid }) : await next();
    // Variant fr-op10-empty-update-refused: "Fields required beyond oldPhoneNumber: not shown".
    if (served(answer) && f('fr-op10-empty-update-refused') && CONTACT_OBJECTS.every((k) => b[k] === undefined))
      answer = json(400, { error: 'nothing to update' });
    if (!served(answer) && f('fr-op10-errors-html')) return contactRefusal(answer, b);
    return answer;
  };
}
