import type { Feature } from '../../harness/case';

export const MONEY_MOVEMENT_FEATURES: Feature[] = [];
