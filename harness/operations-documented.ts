import { OPERATIONS, type OperationKey } from './operations';
import type { OperationDocumentation } from './operations-types';

export {
  type DocumentedBody,
  type DocumentedParameter,
  type DocumentedResponse,
  type OperationDocumentation,
  SECURITY_SCHEMES,
  type SecuritySchemeKey,
} from './operations-types';

/**
 * What the spec documents about each operation of `OPERATIONS` beyond its method and path, by operation: the
 * `documented` member of each entry of the operations table (harness/operations-<area>.ts), where it is written
 * once, in the spec's words. The OpenAPI generator (harness/openapi/), the contract coverage and the self-tests
 * read it.
 */
export const OPERATION_DOCUMENTATION: Readonly<Record<OperationKey, OperationDocumentation>> = Object.fromEntries(
  Object.entries(OPERATIONS).map(([key, op]) => [key, op.documented]),
) as Record<OperationKey, OperationDocumentation>;
