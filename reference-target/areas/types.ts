import type { Route } from '../http';
import type { ReferenceState } from '../state';

export interface AreaContext {
  state: ReferenceState;
  /** Whether a named fault is switched on. */
  fault(name: string): boolean;
}

/** An area's routes, mounted under one of the three base URL prefixes. */
export interface AreaRoutes {
  base: 'baseUrl' | 'authBaseUrl' | 'transfersBaseUrl';
  routes: Route[];
}
