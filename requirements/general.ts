import type { Requirement } from './types';

/** Conventions and statements that concern the interface as a whole. */
export const GENERAL_REQUIREMENTS: Requirement[] = [
  { id: 'CONV-JSON-BODIES', section: 'What the service does', grade: 'MUST', operations: [1, 2, 3, 4, 8, 9], statement: '"Bodies are JSON objects." A response body documented as an object parses as a JSON object.' },
];
