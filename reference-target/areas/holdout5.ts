import { wrapAround } from './holdout';
import { holdout5Institution } from './holdout5-institution';
import { holdout5Contact, holdout5Revoke, holdout5Transfer } from './holdout5-others';
import { holdout5User } from './holdout5-user';
import type { AreaContext, AreaRoutes } from './types';

/**
 * The fifth hold-out set (reference-target/faults/holdout5-*.ts, docs/hold-out.md, "The fifth set (session 41)"):
 * faults written from the spec alone, aimed at the state (each state met by each operation, several records of one
 * identity, repeats, read-back, interleavings), applied around the reference routes as the other sets' are
 * (reference-target/areas/holdout.ts).
 */
export function holdout5Wrapped(ctx: AreaContext, area: AreaRoutes): AreaRoutes {
  return wrapAround(area, {
    institution: holdout5Institution(ctx),
    user: holdout5User(ctx),
    revoke: holdout5Revoke(ctx),
    transfer: holdout5Transfer(ctx),
    contact: holdout5Contact(ctx),
  });
}
