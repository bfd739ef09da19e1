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

/** The hold-out behaviour of each family of routes, applied around the reference route (`next`). */
export interface HoldoutWrappers {
  institution: (route: Route, req: Parameters<Route['handler']>[0], next: Next) => Promise<Res>;
  user: (route: Route, req: Parameters<Route['handler']>[0], next: Next) => Promise<Res>;
  revoke: (req: Parameters<Route['handler']>[0], next: Next) => Promise<Res>;
  transfer: (req: Parameters<Route['handler']>[0], next: Next) => Promise<Res>;
  contact: (req: Parameters<Route['handler']>[0], next: Next) => Promise<Res>;
}

/** Every route of `area` with the wrapper of its family around it (one dispatch for every hold-out set). */
export function wrapAround(area: AreaRoutes, w: HoldoutWrappers): AreaRoutes {
  const wrap = (route: Route): Route => ({
    ...route,
    handler: async (req) => {
      const next = async () => route.handler(req);
      if (route.path.includes('/institution-disclosures')) return w.institution(route, req, next);
      if (route.path.includes('/institution-user-disclosures')) return w.user(route, req, next);
      if (route.path.endsWith('/revoke')) return w.revoke(req, next);
      if (route.path.endsWith('/transfers')) return w.transfer(req, next);
      if (route.path.includes(':contact-info')) return w.contact(req, next);
      return next();
    },
  });
  return { ...area, routes: area.routes.map(wrap) };
}

export function holdoutWrapped(ctx: AreaContext, area: AreaRoutes): AreaRoutes {
  return wrapAround(area, {
    institution: holdoutInstitution(ctx),
    user: holdoutUser(ctx),
    revoke: holdoutRevoke(ctx),
    transfer: holdoutTransfer(ctx),
    contact: holdoutContact(ctx),
  });
}
