import type { Res, Route } from '../http';
import { holdoutInstitution, holdoutUser } from './holdout-disclosures';
import { holdoutContact, holdoutRevoke, holdoutTransfer } from './holdout-others';
import type { AreaContext, AreaRoutes } from './types';

/**
 * The hold-out faults (reference-target/faults/holdout-*.ts, docs/hold-out.md): faults written from the spec alone,
 * without reading the fault table, to measure what the suite catches of faults it has never seen. Each is applied
 * around a reference route (before it: what the request is taken to say; after it: the answer and the state), so
 * the routes themselves stay as they are.
 */
export type Next = () => Promise<Res>;

export function holdoutWrapped(ctx: AreaContext, area: AreaRoutes): AreaRoutes {
  const institution = holdoutInstitution(ctx);
  const user = holdoutUser(ctx);
  const revoke = holdoutRevoke(ctx);
  const transfer = holdoutTransfer(ctx);
  const contact = holdoutContact(ctx);
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
