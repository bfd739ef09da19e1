import type { AreaContext, AreaRoutes } from './types';

/** Not built yet: the area's issue adds its routes. */
export function moneyMovementArea(_ctx: AreaContext): AreaRoutes {
  return { base: 'transfersBaseUrl', routes: [] };
}
