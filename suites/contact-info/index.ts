import type { Feature } from '../../harness/case';

export const CONTACT_INFO_FEATURES: Feature[] = [];
