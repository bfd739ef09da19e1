import { wrapAround } from './holdout';
import { holdout2Institution, holdout2User } from './holdout2-disclosures';
import { holdout2Contact, holdout2Revoke, holdout2Transfer } from './holdout2-others';
import type { AreaContext, AreaRoutes } from './types';

/**
 * The second hold-out set (reference-target/faults/holdout2-*.ts, docs/hold-out.md, "The second set"): faults
 * written from the spec alone by another author, applied around the reference routes as the first set's are
 * (reference-target/areas/holdout.ts).
 */
export function holdout2Wrapped(ctx: AreaContext, area: AreaRoutes): AreaRoutes {
  return wrapAround(area, {
    institution: holdout2Institution(ctx),
    user: holdout2User(ctx),
    revoke: holdout2Revoke(ctx),
    transfer: holdout2Transfer(ctx),
    contact: holdout2Contact(ctx),
  });
}
