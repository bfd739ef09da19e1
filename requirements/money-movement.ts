import type { Requirement } from './types';

export const MONEY_MOVEMENT_REQUIREMENTS: Requirement[] = [];
