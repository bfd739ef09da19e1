import { validate } from '../../harness/schemas';
import { dressed, INVALID_JSON, json, noContent, refusals, type Req, type Res } from '../http';
import type { Customer } from '../state';
import type { AreaContext, AreaRoutes } from './types';

/**
 * Operation 10: PUT /customers/{customerId}:contact-info (no version segment). The spec shows no
 * authentication and no errors: this target accepts the disclosures bearer tokens and answers
 * 401, 400, 404 and 409 with a small JSON body, its own choices.
 */
export function contactInfoArea(ctx: AreaContext): AreaRoutes {
  const k = contactKit(ctx);
  const handler = (req: Req) => updateContactInfo(k, req);
  const path = ctx.fault('op10-served-only-versioned')
    ? '/v1/customers/{customerId}:contact-info'
    : '/customers/{customerId}:contact-info';
  const routes = [{ method: 'PUT', path, handler }];
  if (ctx.fault('op10-also-versioned'))
    routes.push({ method: 'PUT', path: '/v1/customers/{customerId}:contact-info', handler });
  return { base: 'baseUrl', routes };
}

/** An update's body, once it is valid against the schema. */
interface ContactBody {
  userIdType?: string;
  phoneNumber?: Record<string, string>;
  email?: { emailAddress?: string };
  postalAddress?: Record<string, string>;
}

/** What the operation's answers share, made once per target. */
interface ContactKit {
  ctx: AreaContext;
  /** Variant op10-refusals-other-shapes. */
  other: boolean;
  badRequest(message: string): Res;
  unauthorized(): Res;
  mismatch(): Res;
  thirdChangeLost(customer: Customer, p: Record<string, string>): boolean;
  /** The number the customer had when the target started. */
  startedWith(customer: Customer): string | undefined;
}

function contactKit(ctx: AreaContext): ContactKit {
  const { state } = ctx;
  /** Fault op10-third-change-not-stored: each customer's number at the start, and its changes away from it in a row. */
  const initial = new Map([...state.customers.values()].map((c) => [c, c.phoneNumber]));
  const away = new Map<object, number>();
  /** Refusals: the reference target's own choice, or (variant op10-refusals-other-shapes) other ones. */
  const other = ctx.fault('op10-refusals-other-shapes');
  const { badRequest, unauthorized } = refusals(other);
  return {
    ctx,
    other,
    badRequest,
    unauthorized,
    startedWith: (customer) => initial.get(customer),
    mismatch: (): Res =>
      other
        ? { status: 422, headers: { 'content-type': 'text/plain' }, body: 'oldPhoneNumber does not match' }
        : json(409, { error: 'conflict', message: 'oldPhoneNumber does not match the phone number on record' }),
    /**
     * Fault op10-third-change-not-stored: a phone number sent alone (country code kept) is answered 204 and not
     * stored when it is the third change in a row away from the number the customer started with.
     */
    thirdChangeLost(customer, p) {
      const to = p.newPhoneNumber!;
      if (!ctx.fault('op10-third-change-not-stored') || to === customer.phoneNumber) return false;
      if (to === initial.get(customer)) return away.set(customer, 0) && false;
      if ((p.newCountryCode ?? customer.countryCode) !== customer.countryCode) return false;
      const n = (away.get(customer) ?? 0) + 1;
      away.set(customer, n);
      return n === 3;
    },
  };
}

/** Variant op10-requires-every-member: what a body lacks of userIdType and the supplied objects' members. */
const MEMBERS: Record<string, string[]> = {
  phoneNumber: ['oldPhoneNumber', 'oldCountryCode', 'newPhoneNumber', 'newCountryCode'],
  email: ['emailAddress'],
  postalAddress: ['address1', 'address2', 'city', 'state', 'postalCode', 'country'],
};
function lacking(b: Record<string, any>): string[] {
  const missing = b.userIdType === undefined ? ['userIdType'] : [];
  for (const [o, members] of Object.entries(MEMBERS))
    if (b[o] && typeof b[o] === 'object')
      missing.push(...members.filter((m) => b[o][m] === undefined).map((m) => `${o}.${m}`));
  return missing;
}

function authenticated(ctx: AreaContext, req: Req): boolean {
  const auth = req.headers['authorization'];
  if (!auth) return ctx.fault('op10-serves-without-credentials');
  const m = /^Bearer\s+(.+)$/i.exec(auth);
  return !!m && ctx.state.bearerUsers.has(m[1]!);
}

/**
 * Rule 2: oldPhoneNumber must match the number on record. Faults break the comparison the ways real
 * implementations do: a prefix compare, a check skipped for blank values, a check against every
 * customer, a check skipped when the body carries other objects, or run only in the all-three branch.
 */
function oldPhoneMatches(
  ctx: AreaContext,
  old: string,
  onRecord: string,
  b: { email?: unknown; postalAddress?: unknown },
  startedWith?: string,
): boolean {
  if (old === onRecord) return true;
  // Checked only while the number the customer started with is on record (a cache of it, never updated).
  if (ctx.fault('op10-mismatch-accepted-after-a-change') && onRecord !== startedWith) return true;
  if (
    ctx.fault('op10-old-phone-compares-prefix') &&
    old.length === onRecord.length &&
    old.slice(0, -1) === onRecord.slice(0, -1)
  )
    return true;
  if (ctx.fault('op10-blank-old-phone-skips-check') && old.trim() === '') return true;
  if (
    ctx.fault('op10-old-phone-matches-any-customer') &&
    [...ctx.state.customers.values()].some((c) => c.phoneNumber === old)
  )
    return true;
  if (ctx.fault('op10-mismatch-ignored-with-other-objects') && (b.email !== undefined || b.postalAddress !== undefined))
    return true;
  const allThree = b.email !== undefined && b.postalAddress !== undefined;
  return allThree && ctx.fault('op10-all-three-partial-on-mismatch');
}

function updateContactInfo(k: ContactKit, req: Req): Res {
  const answer = updateAnswer(k, req);
  if (!k.ctx.fault('op10-charset-header-case')) return answer;
  const extra: Record<string, string> =
    answer.status === 204 ? { 'content-type': 'application/json', 'content-length': '0' } : {};
  return dressed(answer, extra);
}

function updateAnswer(k: ContactKit, req: Req): Res {
  const addressed = addressedCustomer(k, req);
  if ('status' in addressed) return addressed;
  const { b, customer } = addressed;
  const refused = refusedUpdate(k, b, customer);
  if (refused) return refused;
  store(k, b, customer);
  if (k.ctx.fault('op10-answers-200-with-body')) return json(200, { customerId: req.params.customerId, updated: true });
  return noContent();
}

/** The request authenticated, its body valid, and the customer it addresses; else the refusal. */
function addressedCustomer(k: ContactKit, req: Req): Res | { b: ContactBody; customer: Customer } {
  const { ctx, badRequest } = k;
  if (!authenticated(ctx, req)) return k.unauthorized();
  if (req.body === INVALID_JSON || req.body === null || typeof req.body !== 'object' || Array.isArray(req.body))
    return badRequest('the body must be a JSON object');
  // Rule 2's "oldPhoneNumber is required" is checked below, where a fault can switch it off.
  const errors = validate('contact-update-request', req.body).filter((e) => !/missing member oldPhoneNumber/.test(e));
  if (errors.length) return badRequest(errors.join('; '));
  const lacks = ctx.fault('op10-requires-every-member') ? lacking(req.body as Record<string, any>) : [];
  if (lacks.length) return badRequest(`missing ${lacks.join(', ')}`);
  const b = req.body as ContactBody;
  if (b.userIdType === 'LOGIN_ID' && ctx.fault('op10-refuses-login-id'))
    return badRequest('userIdType LOGIN_ID is not supported: address the ' + 'customer by its customer id');
  // The path id is a customer id or a login id, as userIdType says.
  const id = req.params.customerId!;
  const customer = ctx.state.customers.get(id);
  const typeMatters = !ctx.fault('op10-ignores-user-id-type');
  if (!customer || (typeMatters && ctx.state.loginIds.has(id) !== (b.userIdType === 'LOGIN_ID')))
    return k.other
      ? { status: 404 }
      : json(404, { error: 'not_found', message: `no customer with ${b.userIdType ?? 'CUSTOMER_ID'} ${id}` });
  return { b, customer };
}

/** What the body supplies, checked against what the customer has on record. */
function refusedUpdate(k: ContactKit, b: ContactBody, customer: Customer): Res | undefined {
  const { ctx, badRequest } = k;
  if (!b.phoneNumber && !b.email && !b.postalAddress) return badRequest('supply phoneNumber, email or postalAddress');
  const allThree = !!(b.phoneNumber && b.email && b.postalAddress);
  if (allThree && ctx.fault('op10-refuses-all-three')) return badRequest('update one kind of contact data at a time');
  if (b.postalAddress && !b.phoneNumber && !b.email && ctx.fault('op10-refuses-postal-address-alone'))
    return badRequest('a postal address needs a phone number or ' + 'an e-mail address');
  if (b.phoneNumber) {
    const p = b.phoneNumber;
    if (!p.newPhoneNumber) return badRequest('phoneNumber.newPhoneNumber is required');
    if (p.oldPhoneNumber === undefined) {
      if (!ctx.fault('op10-accepts-missing-old-phone')) return badRequest('phoneNumber.oldPhoneNumber is required');
    } else if (
      !oldPhoneMatches(ctx, p.oldPhoneNumber, customer.phoneNumber, b, k.startedWith(customer)) &&
      !ctx.fault('op10-accepts-mismatched-old-phone')
    ) {
      return k.mismatch();
    } else if (
      ctx.fault('op10-old-country-code-checked') &&
      p.oldCountryCode !== undefined &&
      p.oldCountryCode !== customer.countryCode
    ) {
      return k.mismatch();
    }
  }
  if (b.email && b.email.emailAddress === undefined) return badRequest('email.emailAddress is required');
  return undefined;
}

/** Stores what the body supplies (or, with a fault, less or more). */
function store(k: ContactKit, b: ContactBody, customer: Customer): void {
  const { ctx } = k;
  const allThree = !!(b.phoneNumber && b.email && b.postalAddress);
  let skipPhone = allThree ? ctx.fault('op10-all-three-skips-phone') : ctx.fault('op10-phone-alone-not-stored');
  // A branch that answers without storing: a new country code is "validated later", and never stored.
  if (
    b.phoneNumber?.newCountryCode !== undefined &&
    b.phoneNumber.newCountryCode !== customer.countryCode &&
    ctx.fault('op10-country-code-change-not-stored')
  )
    skipPhone = true;
  // A partial update: with all three objects and a mismatched oldPhoneNumber, the e-mail and address are stored
  // anyway.
  if (
    allThree &&
    b.phoneNumber!.oldPhoneNumber !== customer.phoneNumber &&
    ctx.fault('op10-all-three-partial-on-mismatch')
  )
    skipPhone = true;
  if (b.phoneNumber && !b.email && !b.postalAddress && k.thirdChangeLost(customer, b.phoneNumber)) skipPhone = true;
  if (b.phoneNumber && !skipPhone) {
    customer.phoneNumber = b.phoneNumber.newPhoneNumber!;
    if (b.phoneNumber.newCountryCode !== undefined) customer.countryCode = b.phoneNumber.newCountryCode;
  }
  // A replace-instead-of-update bug: the e-mail and address without a phone number clear the number.
  if (!b.phoneNumber && b.email && b.postalAddress && ctx.fault('op10-unsupplied-phone-cleared'))
    customer.phoneNumber = '';
  if (b.email) customer.emailAddress = b.email.emailAddress;
  if (b.postalAddress) customer.postalAddress = { ...b.postalAddress };
}
