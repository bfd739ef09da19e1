import { DISCLOSURES_OPERATION_REQUIREMENTS } from './disclosures-operations';
import { DISCLOSURES_RESOURCE_REQUIREMENTS } from './disclosures-resources';
import type { Requirement } from './types';

/** Operations 1–7 and the two disclosure resources. */
export const DISCLOSURES_REQUIREMENTS: Requirement[] = [
  ...DISCLOSURES_RESOURCE_REQUIREMENTS,
  ...DISCLOSURES_OPERATION_REQUIREMENTS,
];
