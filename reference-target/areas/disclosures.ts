import type { Route } from '../http';
import { D, disclosuresKit } from './disclosures-kit';
import { institutionDisclosureHandlers } from './institution-disclosures';
import type { AreaContext, AreaRoutes } from './types';
import { userDisclosureHandlers } from './user-disclosures';

/**
 * Operations 1–7. Success statuses the spec does not show are chosen here as 200/201. What every route shares is
 * disclosures-kit.ts; the handlers are institution-disclosures.ts (1–3) and user-disclosures.ts (4–7).
 */
export function disclosuresArea(ctx: AreaContext): AreaRoutes {
  const kit = disclosuresKit(ctx);
  const h = { ...institutionDisclosureHandlers(kit), ...userDisclosureHandlers(kit) };
  /** Faults that move or remove a route: the documented path answers 404 or 405. */
  const versionless = (name: string, path: string) => (ctx.fault(name) ? path.replace(D, '/db-disclosures') : path);
  const idForms = !ctx.fault('disc-user-id-forms-missing');
  const routes: Array<Route | false> = [
    {
      method: 'GET',
      path: versionless('op1-requires-version-less-path', `${D}/institution-disclosures`),
      handler: h.listDisclosures,
    },
    {
      method: 'POST',
      path: versionless('op2-requires-version-less-path', `${D}/institution-disclosures`),
      handler: h.createDisclosure,
    },
    {
      method: 'PUT',
      path: versionless('op3-requires-version-less-path', `${D}/institution-disclosures/{institutionDisclosureId}`),
      handler: h.changeDisclosure,
    },
    { method: 'GET', path: `${D}/institution-user-disclosures`, handler: h.listUserDisclosures },
    { method: 'POST', path: `${D}/institution-user-disclosures`, handler: h.createUserDisclosure },
    !ctx.fault('op6-collection-form-missing') && {
      method: 'PUT',
      path: `${D}/institution-user-disclosures`,
      handler: h.changeUserDisclosure,
    },
    idForms && {
      method: 'PUT',
      path: `${D}/institution-user-disclosures/{institutionUserDisclosureId}`,
      handler: h.changeUserDisclosure,
    },
    !ctx.fault('op7-collection-form-missing') && {
      method: 'DELETE',
      path: `${D}/institution-user-disclosures`,
      handler: h.deleteUserDisclosure,
    },
    idForms && {
      method: 'DELETE',
      path: `${D}/institution-user-disclosures/{institutionUserDisclosureId}`,
      handler: h.deleteUserDisclosure,
    },
  ];
  const served = routes.filter((r): r is Route => r !== false);
  // Variant disc-also-versionless: each operation also served without the v1 segment.
  const older = served
    .filter((r) => r.path.startsWith(D))
    .map((r) => ({ ...r, path: r.path.replace(D, '/db-disclosures') }));
  return { base: 'baseUrl', routes: ctx.fault('disc-also-versionless') ? [...served, ...older] : served };
}
