import type { Feature } from '../../harness/case';

export const AUTHENTICATION_FEATURES: Feature[] = [];
