import type { Feature } from '../../harness/case';
import revokeToken from './revoke-token';

export const AUTHENTICATION_FEATURES: Feature[] = [revokeToken];
