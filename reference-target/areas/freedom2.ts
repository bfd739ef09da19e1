import { json, type Req, type Res, type Route } from '../http';
import { freedom2Institution, freedom2User, transactionIdGuard } from './freedom2-disclosures';
import { freedom2Contact, freedom2Revoke, freedom2Transfer } from './freedom2-others';
import type { AreaContext, AreaRoutes } from './types';

/**
 * The second hold-out set of conformant choices (session 41, reference-target/faults/freedom2-variants.ts,
 * docs/hold-out.md "A second hold-out set of conformant choices (session 41)"): behaviours a vendor may choose where
 * the spec leaves room, applied around every route (the first set's, the hold-out sets' and the reference's).
 */

/** The vendor profiles of the set: several choices at once, as one product would make them. */
export const FREEDOM2_PROFILES: Readonly<Record<string, readonly string[]>> = {
  'fr2-profile-api-gateway': [
    'fr2-rate-limit-429',
    'fr2-gateway-429',
    'fr2-read-503',
    'fr2-slow-answers',
    'fr2-head-options',
    'fr2-json-pretty-unicode',
    'fr2-op8-scheme-any-case',
    'fr-transport',
  ],
  'fr2-profile-strict-core': [
    'fr2-strict-query',
    'fr2-disc-txid-reuse-409',
    'fr2-op6-cas-requires-id',
    'fr2-op5-timestamp-window',
    'fr2-op3-name-collision-409',
    'fr2-op5-record-cap',
    'fr2-op9-schedule-dow-0-6',
    'fr2-op9-daily-limit',
    'fr2-op10-postal-formats',
    'fr2-op10-field-lengths',
  ],
  'fr2-profile-normaliser': [
    'fr2-name-cut-64',
    'fr2-op4-canonical-names',
    'fr2-op9-rounds-amounts',
    'fr2-op8-iso-durations',
    'fr2-op9-pending-status',
    'fr2-op1-data-shapes',
    'fr2-op8-with-auth-record',
  ],
  'fr2-profile-consumer-portal': [
    'fr2-op4-accepted-only',
    'fr2-op4-unknown-consumer-404',
    'fr2-op4-canonical-names',
    'fr2-op5-record-cap',
    'fr2-op4-masked-accounts',
    'fr-lists-shuffled',
  ],
};

/** The faults to switch on: each name, and every member of a profile of this set named. */
export function withProfiles2(names: readonly string[]): string[] {
  return [...new Set(names.flatMap((n) => [n, ...(FREEDOM2_PROFILES[n] ?? [])]))];
}

const RETRY = { 'retry-after': '1' };
const guarded = (path: string) => path.includes('disclosures') || path.includes(':contact-info');

/**
 * What a gateway in front of the service refuses before the service sees the request, none processed, each refusal
 * clearing: the repeat of a refused request is served. fr2-rate-limit-429 (every 47th request of the disclosures and
 * contact operations, 429 with Retry-After), fr2-gateway-429 (every 23rd of revocation and transfers, with code and
 * message), fr2-read-503 (every 31st read, 503 with Retry-After). "Rate limits, size limits, time-outs and token
 * lifetimes: not shown."
 */
function gateway(ctx: AreaContext) {
  const f = ctx.fault;
  const n = { guarded: 0, other: 0, reads: 0 };
  const refused = new Set<string>();
  const refuse = (key: string, answer: Res): Res => {
    refused.add(key);
    return answer;
  };
  return (route: Route, req: Req): Res | undefined => {
    const id = req.headers['transactionid'] ?? '';
    const key = [req.method, req.path, String(req.query), req.headers['authorization'], id, req.text].join(' ');
    if (refused.delete(key)) return undefined;
    if (guarded(route.path) && f('fr2-rate-limit-429') && ++n.guarded % 47 === 0)
      return refuse(key, json(429, { error: 'rate_limited', message: 'too many requests' }, RETRY));
    if (!guarded(route.path) && f('fr2-gateway-429') && ++n.other % 23 === 0)
      return refuse(key, json(429, { code: 'RATE_LIMITED', message: 'too many requests' }, RETRY));
    if (req.method === 'GET' && f('fr2-read-503') && ++n.reads % 31 === 0)
      return refuse(key, json(503, { error: 'unavailable', message: 'try again' }, RETRY));
    return undefined;
  };
}

/** Variant fr2-json-pretty-unicode: JSON written indented, every character past ASCII escaped, a closing newline. */
function pretty(answer: Res): Res {
  if (answer.body === undefined || typeof answer.body === 'string') return answer;
  const text = JSON.stringify(answer.body, null, 2).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const labelled = Object.keys(answer.headers ?? {}).some((k) => k.toLowerCase() === 'content-type');
  const headers = labelled ? { ...answer.headers } : { ...answer.headers, 'content-type': 'application/json' };
  return { ...answer, headers, body: `${text}\n` };
}

/** Variant fr2-head-options: HEAD beside every GET, OPTIONS on every path, with Allow. HTTP, not the spec. */
function headAndOptions(routes: Route[]): Route[] {
  const paths = [...new Set(routes.map((r) => r.path))];
  const heads = routes.filter((r) => r.method === 'GET').map((r) => ({ ...r, method: 'HEAD' }));
  const options = paths.map((path) => {
    const allow = [...routes.filter((r) => r.path === path).map((r) => r.method), 'OPTIONS'];
    if (allow.includes('GET')) allow.push('HEAD');
    return { method: 'OPTIONS', path, handler: async () => ({ status: 204, headers: { allow: allow.join(', ') } }) };
  });
  return [...heads, ...options];
}

type Family = 'institution' | 'user' | 'revoke' | 'transfer' | 'contact';
const familyOf = (path: string): Family | undefined =>
  path.includes('/institution-disclosures')
    ? 'institution'
    : path.includes('/institution-user-disclosures')
      ? 'user'
      : path.endsWith('/revoke')
        ? 'revoke'
        : path.endsWith('/transfers')
          ? 'transfer'
          : path.includes(':contact-info')
            ? 'contact'
            : undefined;

export function freedom2Wrapped(ctx: AreaContext, area: AreaRoutes): AreaRoutes {
  const institution = freedom2Institution(ctx);
  const user = freedom2User(ctx);
  const w = { revoke: freedom2Revoke(ctx), transfer: freedom2Transfer(ctx), contact: freedom2Contact(ctx) };
  const gate = gateway(ctx);
  const replays = transactionIdGuard(ctx);
  const choices = (route: Route, req: Req): Promise<Res> => {
    const next = async (r: Req) => route.handler(r);
    const family = familyOf(route.path);
    if (family === 'institution') return institution(route, req, next);
    if (family === 'user') return user(route, req, next);
    return family ? w[family](req, next) : next(req);
  };
  const dress = (route: Route): Route => ({
    ...route,
    handler: async (req) => {
      if (ctx.fault('fr2-slow-answers')) await new Promise((r) => setTimeout(r, 5 + Math.random() * 45));
      let answer = gate(route, req) ?? replays(route, req) ?? (await choices(route, req));
      if (ctx.fault('fr2-json-pretty-unicode')) answer = pretty(answer);
      return answer;
    },
  });
  const routes = area.routes.map(dress);
  return { ...area, routes: ctx.fault('fr2-head-options') ? [...routes, ...headAndOptions(routes)] : routes };
}
