import type { AreaContext, AreaRoutes } from './types';

/** Not built yet: the area's issue adds its routes. */
export function contactInfoArea(_ctx: AreaContext): AreaRoutes {
  return { base: 'baseUrl', routes: [] };
}
