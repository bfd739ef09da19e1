import type { TargetConfig } from '../config';
import { OPERATIONS, type OperationKey } from '../operations';
import { CATALOG } from '../../requirements';
import type { RequirementRow } from './results';

/**
 * Declared deviations: what the configuration says the target does differently from the spec (paths:
 * an operation served at another path). The run sends there, and every report says so: the requirements
 * that state the spec's path are not verified (the run never asked the spec's path), never passed.
 */
export interface DeclaredDeviation {
  /** The configuration key, e.g. "paths.updateContactInfo". */
  key: string;
  operation: string;
  documented: string;
  used: string;
  /** The catalog requirements that state the documented path. */
  requirements: string[];
  /** One line for a person. */
  text: string;
}

/** `redact`: the run's Redactor (a path is written into every report). */
export function declaredDeviations(
  config: Pick<TargetConfig, 'paths'>,
  redact = (s: string) => s,
): DeclaredDeviation[] {
  return Object.entries(config.paths ?? {}).map(([key, path]) => {
    const used = redact(path!);
    const op = OPERATIONS[key as OperationKey];
    const states = (r: (typeof CATALOG)[number]) => r.operations.includes(op.number) && r.statement.includes(op.path);
    const requirements = CATALOG.filter(states).map((r) => r.id);
    const operation = `${op.number}. ${op.name}`;
    const text = `paths.${key}: ${operation} is sent to ${op.method} ${used} instead of the spec's ${op.path}`;
    return { key: `paths.${key}`, operation, documented: op.path, used, requirements, text };
  });
}

/** The rows of the requirements that state a path the run did not use: not verified, with the deviation. */
export function markDeviations(rows: RequirementRow[], deviations: DeclaredDeviation[]): RequirementRow[] {
  if (!deviations.length) return rows;
  return rows.map((r) => {
    const mine = deviations.filter((d) => d.requirements.includes(r.id));
    if (!mine.length) return r;
    const notes = [...mine.map((d) => `declared deviation, not verified at the spec's path: ${d.text}`), ...r.notes];
    // A pass at another path is no pass of the spec's; a failure there stays a failure (its test failed).
    const verdict =
      r.verdict === 'passed' || r.verdict === 'observed' || r.verdict === 'warning'
        ? ('not-verified' as const)
        : r.verdict;
    return { ...r, verdict, notes };
  });
}

/** "…; 1 declared deviation (paths.updateContactInfo)": the headline never hides a deviation. */
export function deviationHeadline(headline: string, deviations: DeclaredDeviation[]): string {
  if (!deviations.length) return headline;
  const n = deviations.length;
  return `${headline}; ${n} declared deviation${n === 1 ? '' : 's'} (${deviations.map((d) => d.key).join(', ')})`;
}
