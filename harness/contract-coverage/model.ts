import { CATALOG, type Requirement } from '../../requirements';
import { OPERATION_DOCUMENTATION, type OperationDocumentation } from '../operations-documented';
import { OPERATIONS, type OperationKey } from '../operations';
import { fileSchema } from './schema-members';
import { operationCells } from './operation-cells';

/**
 * The contract-coverage model (issue 23): for each operation, every element the spec documents (headers,
 * query and path parameters, body and response members, shown values, statuses, error shapes, catalog
 * rules) and the sides an exchange can exercise it from. Derived from harness/operations-documented.ts,
 * schemas/ and the catalog: nothing here is listed per operation. Not to be confused with
 * harness/run/coverage.ts (which areas a run verified something in).
 */

export type ElementKind =
  | 'header'
  | 'query'
  | 'path'
  | 'body-member'
  | 'response-member'
  | 'status'
  | 'error-shape'
  | 'combination'
  | 'authentication'
  | 'rule';

/**
 * - sent / omitted: presence in a request; received: presence in an answer (or a status answered)
 * - shown-value: a value the spec shows, sent (request) or received (answer) as written
 * - type-violated: a request whose value breaks the documented type, format or pattern
 * - near-miss: a value the target compares with state and that matches nothing (a credential never
 *   issued, a path identifier of no record)
 * - reference: a path identifier of a stored record, answered 2xx
 * - agree / differ: a header and the body member of the same name, with the same or different values
 * - judged: a check naming the catalog rule judged an exchange of the operation
 */
export type Side =
  | 'sent'
  | 'omitted'
  | 'received'
  | 'shown-value'
  | 'type-violated'
  | 'near-miss'
  | 'reference'
  | 'agree'
  | 'differ'
  | 'judged';

export const SIDES: readonly Side[] = [
  'sent',
  'omitted',
  'received',
  'shown-value',
  'type-violated',
  'near-miss',
  'reference',
  'agree',
  'differ',
  'judged',
];

/** A JSON Schema fragment, as read from schemas/ ($refs resolved). */
export type SchemaNode = Record<string, unknown>;

export interface CoverageCell {
  /** Stable within a model: operation, element, side and value. */
  id: string;
  operation: OperationKey;
  kind: ElementKind;
  /** The header or parameter name, the member path (a.b, list[].c), the status, the rule id. */
  element: string;
  side: Side;
  /** The value of a shown-value side, the status of a status side. */
  value?: string;
  /** Set when the spec leaves it open ("not shown") or the interface cannot show it: why. */
  notTestable?: string;
  /** Catalog rules of the operation that name the element (its inputs). */
  rules: string[];
  /** For type-violated and shown-value sides of parameters and members: the documented value schema. */
  schema?: SchemaNode;
  /** A rule about the client's side: testable in recorded traffic only (an active run's suite is the client). */
  trafficOnly?: string;
  /** For the status and error-shape sides: the status ('2XX' for any 2xx). */
  status?: string;
  /**
   * A response member the answer may leave out, and why (schemas/: not required at every level of its path,
   * in one branch of an anyOf/oneOf, or in a list's elements): where no answer carries it, the cell is not
   * applicable on that target rather than not tested.
   */
  optional?: string;
  /** A parameter's documented words (operations-documented.ts), for the reasons the report gives. */
  description?: string;
}

export interface CoverageModel {
  cells: CoverageCell[];
}

export interface ModelSources {
  documentation?: Record<OperationKey, OperationDocumentation>;
  catalog?: Requirement[];
  /** A schema of schemas/ by name (default: the file). */
  schema?: (name: string) => SchemaNode;
  /** Only the cells of these operations (the generated cases of one operation need no more). */
  only?: OperationKey[];
}

export { cellId } from './operation-cells';
export { type Member, membersOf, shownValuesOf } from './schema-members';

/**
 * Build the model from the documented facts, the catalog and the schemas. Pass a copy of any of them
 * to see what the model makes of a change (the self-tests do).
 */
export function buildCoverageModel(sources: ModelSources = {}): CoverageModel {
  const documentation = sources.documentation ?? OPERATION_DOCUMENTATION;
  const catalog = sources.catalog ?? CATALOG;
  const load = sources.schema ?? fileSchema;
  const cells: CoverageCell[] = [];
  const firstOfNumber = new Map<number, OperationKey>();
  for (const key of Object.keys(documentation) as OperationKey[]) {
    const n = OPERATIONS[key].number;
    if (!firstOfNumber.has(n)) firstOfNumber.set(n, key);
  }
  for (const key of Object.keys(documentation) as OperationKey[]) {
    if (sources.only && !sources.only.includes(key)) continue;
    const first = firstOfNumber.get(OPERATIONS[key].number) === key;
    operationCells(key, documentation[key], catalog, load, cells, first);
  }
  return { cells };
}
