import type { Req, Res, Route } from '../http';
import { wrapAround } from './holdout';
import { freedomContact, freedomRevoke, freedomTransfer } from './freedom-others';
import { freedomInstitution, freedomUser } from './freedom-disclosures';
import { badCredentialGuard, notJsonRefused, transferChoices } from './freedom-more';
import type { AreaContext, AreaRoutes } from './types';

/**
 * The fourth hold-out set, of conformant choices (reference-target/faults/freedom-variants.ts, docs/hold-out.md,
 * "A hold-out set of conformant choices (session 40)"): behaviours a vendor may choose where the spec leaves room,
 * written from the spec alone, applied around the reference routes as the hold-out sets' are.
 */

/** The vendor profiles: several choices at once, as one implementation would make them. */
export const FREEDOM_PROFILES: Readonly<Record<string, readonly string[]>> = {
  'fr-vendor-strict': [
    'fr-disc-strict-common-headers',
    'fr-disc-errors-html',
    'fr-user-status-values',
    'fr-user-empty-names-refused',
    'fr-op7-account-type-mandatory',
    'fr-op6-op7-customer-mandatory',
    'fr-op8-refresh-token-required',
    'fr-op9-amount-bounds',
    'fr-op9-day-numbering-iso',
    'fr-op10-empty-update-refused',
    'fr-op10-errors-html',
    'fr-415-not-json',
    'fr-bad-credentials-throttled',
    'fr-op9-duplicate-refused',
    'op3-refuses-empty-name',
    'op5-duplicate-conflict',
    'op8-refuses-body-without-members',
    'op9-refuses-empty-memo',
    'op9-single-execution-schedules',
    'op10-requires-every-member',
  ],
  'fr-vendor-lenient': [
    'fr-op8-revoked-record',
    'fr-op9-replays-transaction-id',
    'fr-op10-digits-match',
    'disc-lenient-writes',
    'disc-unknown-ids-no-content',
    'op3-upserts-unknown-id',
    'disc-also-versionless',
    'op10-also-versioned',
  ],
  'fr-vendor-dressy': [
    'fr-transport',
    'fr-lists-shuffled',
    'fr-gets-203',
    'fr-op2-202',
    'fr-op8-other-error-types',
    'fr-op9-scheduled-status',
    'fr-op9-omits-empty-members',
    'fr-ids-need-encoding',
    'op8-extra-members-charset',
    'op9-extra-members-uuid',
  ],
};

/** The faults to switch on: each name, and every member of a profile named. */
export function withProfiles(names: readonly string[]): string[] {
  return [...new Set(names.flatMap((n) => [n, ...(FREEDOM_PROFILES[n] ?? [])]))];
}

/**
 * Variant fr-transport: every answer with a body is sent chunked (no Content-Length), every answer closes its
 * connection and carries caching and tracing headers. Nothing in the spec speaks of framing, connections or caches.
 */
function transported(answer: Res, n: number): Res {
  const headers: Record<string, string> = {
    ...(answer.headers ?? {}),
    connection: 'close',
    'cache-control': 'no-store, max-age=0',
    pragma: 'no-cache',
    vary: 'Authorization, Accept-Encoding',
    'x-request-id': `req-${n}`,
  };
  if (answer.body !== undefined) {
    headers['transfer-encoding'] = 'chunked';
    headers.etag = `W/"${n}"`;
  }
  return { ...answer, headers };
}

/**
 * Variant fr-json-suffix-media-type: every JSON answer is labelled with the vendor's own media type, a "+json" one
 * (RFC 6839). The spec says "Bodies are JSON objects", and names no media type for an answer.
 */
function suffixLabelled(answer: Res): Res {
  const labelled = Object.keys(answer.headers ?? {}).some((k) => k.toLowerCase() === 'content-type');
  if (labelled || answer.body === undefined || typeof answer.body === 'string') return answer;
  return { ...answer, headers: { ...(answer.headers ?? {}), 'content-type': 'application/vnd.fi.dbsi.v1+json' } };
}

export function freedomWrapped(ctx: AreaContext, area: AreaRoutes): AreaRoutes {
  const wrapped = wrapAround(area, {
    institution: freedomInstitution(ctx),
    user: freedomUser(ctx),
    revoke: freedomRevoke(ctx),
    transfer: freedomTransfer(ctx),
    contact: freedomContact(ctx),
  });
  let n = 0;
  const guard = badCredentialGuard(ctx);
  const transfers = transferChoices(ctx);
  const choices = async (route: Route, req: Req): Promise<Res> => {
    const guarded = route.path.includes('disclosures') || route.path.includes(':contact-info');
    const transfer = route.path.endsWith('/transfers');
    const early = guarded
      ? (guard.before(req) ?? notJsonRefused(ctx, req))
      : transfer
        ? transfers.before(req)
        : undefined;
    if (early) return early;
    const answer = await route.handler(req);
    if (guarded) guard.after(req, answer);
    return transfer ? transfers.after(req, answer) : answer;
  };
  const dress = (route: Route): Route => ({
    ...route,
    handler: async (req) => {
      let answer = await choices(route, req);
      if (ctx.fault('fr-json-suffix-media-type')) answer = suffixLabelled(answer);
      return ctx.fault('fr-transport') ? transported(answer, ++n) : answer;
    },
  });
  return { ...wrapped, routes: wrapped.routes.map(dress) };
}
