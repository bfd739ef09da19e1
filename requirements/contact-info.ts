import type { Requirement } from './types';

export const CONTACT_INFO_REQUIREMENTS: Requirement[] = [];
