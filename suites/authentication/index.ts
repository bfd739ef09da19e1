import type { Feature } from '../../harness/case';
import revokeToken from './revoke-token';
import revocationTypeViolations from './type-violations';
import exploreRevocations from '../explore/explore-revocations';

export const AUTHENTICATION_FEATURES: Feature[] = [revokeToken, revocationTypeViolations, exploreRevocations];
