import type { Route } from '../http';
import { holdout2Institution, holdout2User } from './holdout2-disclosures';
import { holdout2Contact, holdout2Revoke, holdout2Transfer } from './holdout2-others';
import type { AreaContext, AreaRoutes } from './types';

/**
 * The second hold-out set (reference-target/faults/holdout2-*.ts, docs/hold-out.md, "The second set"): faults
 * written from the spec alone by another author, applied around the reference routes as the first set's are
 * (reference-target/areas/holdout.ts).
 */
export function holdout2Wrapped(ctx: AreaContext, area: AreaRoutes): AreaRoutes {
  const institution = holdout2Institution(ctx);
  const user = holdout2User(ctx);
  const revoke = holdout2Revoke(ctx);
  const transfer = holdout2Transfer(ctx);
  const contact = holdout2Contact(ctx);
  const wrap = (route: Route): Route => ({
    ...route,
    handler: async (req) => {
      const next = async () => route.handler(req);
      if (route.path.includes('/institution-disclosures')) return institution(route, req, next);
      if (route.path.includes('/institution-user-disclosures')) return user(route, req, next);
      if (route.path.endsWith('/revoke')) return revoke(req, next);
      if (route.path.endsWith('/transfers')) return transfer(req, next);
      if (route.path.includes(':contact-info')) return contact(req, next);
      return next();
    },
  });
  return { ...area, routes: area.routes.map(wrap) };
}
