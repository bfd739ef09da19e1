import type { Requirement } from './types';

export const AUTHENTICATION_REQUIREMENTS: Requirement[] = [];
