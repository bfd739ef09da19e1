import { wrapAround } from './holdout';
import { holdout4Institution } from './holdout4-institution';
import { holdout4Contact, holdout4Revoke, holdout4Transfer } from './holdout4-others';
import { holdout4User } from './holdout4-user';
import type { AreaContext, AreaRoutes } from './types';

/**
 * The fourth hold-out set (reference-target/faults/holdout4-*.ts, docs/hold-out.md, "The fourth set (session 40)"):
 * faults written from the spec alone, aimed at every value a field shows, the query parameters and optional headers,
 * full lifecycles, the Nth item and combinations, applied around the reference routes as the other sets' are
 * (reference-target/areas/holdout.ts).
 */
export function holdout4Wrapped(ctx: AreaContext, area: AreaRoutes): AreaRoutes {
  return wrapAround(area, {
    institution: holdout4Institution(ctx),
    user: holdout4User(ctx),
    revoke: holdout4Revoke(ctx),
    transfer: holdout4Transfer(ctx),
    contact: holdout4Contact(ctx),
  });
}
