import { wrapAround } from './holdout';
import { holdout3Institution } from './holdout3-institution';
import { holdout3Contact, holdout3Revoke, holdout3Transfer } from './holdout3-others';
import { holdout3User } from './holdout3-user';
import type { AreaContext, AreaRoutes } from './types';

/**
 * The third hold-out set (reference-target/faults/holdout3-*.ts, docs/hold-out.md, "The third set (session 39)"):
 * faults written from the spec alone, aimed at two identities, repeats, the order of writes and the second read,
 * applied around the reference routes as the first two sets' are (reference-target/areas/holdout.ts).
 */
export function holdout3Wrapped(ctx: AreaContext, area: AreaRoutes): AreaRoutes {
  return wrapAround(area, {
    institution: holdout3Institution(ctx),
    user: holdout3User(ctx),
    revoke: holdout3Revoke(ctx),
    transfer: holdout3Transfer(ctx),
    contact: holdout3Contact(ctx),
  });
}
