import type { Feature } from '../../harness/case';
import revokeToken from './revoke-token';
import revocationTypeViolations from './type-violations';

export const AUTHENTICATION_FEATURES: Feature[] = [revokeToken, revocationTypeViolations];
