import type { TargetConfig } from '../config';
import { OPERATIONS, type OperationKey } from '../operations';
import { CATALOG } from '../../requirements';
import type { RequirementRow } from './results';

/**
 * Declared deviations: what the configuration says the target does differently from the spec (paths:
 * an operation served at another path; contactInfoBaseUrl: the contact-info operation under a base URL of
 * its own, not the {base_url} of the disclosures). The run sends there, and every report says so: the
 * requirements that state the spec's path are not verified (the run never asked the spec's path), never passed.
 */
export interface DeclaredDeviation {
  /** The configuration key, e.g. "paths.updateContactInfo" or "contactInfoBaseUrl". */
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
  config: Pick<TargetConfig, 'paths'> & Partial<Pick<TargetConfig, 'baseUrl' | 'contactInfoBaseUrl'>>,
  redact = (s: string) => s,
): DeclaredDeviation[] {
  const statesPath = (op: (typeof OPERATIONS)[OperationKey]) =>
    CATALOG.filter((r) => r.operations.includes(op.number) && r.statement.includes(op.path)).map((r) => r.id);
  const out: DeclaredDeviation[] = Object.entries(config.paths ?? {}).map(([key, path]) => {
    const used = redact(path!);
    const op = OPERATIONS[key as OperationKey];
    const operation = `${op.number}. ${op.name}`;
    const text = `paths.${key}: ${operation} is sent to ${op.method} ${used} instead of the spec's ${op.path}`;
    return { key: `paths.${key}`, operation, documented: op.path, used, requirements: statesPath(op), text };
  });
  const own = config.contactInfoBaseUrl;
  // A base URL of its own is a choice the operator declares, as a path is: the spec's {base_url} is baseUrl's.
  if (own !== undefined && config.baseUrl !== undefined && own !== config.baseUrl) {
    const op = OPERATIONS.updateContactInfo;
    const operation = `${op.number}. ${op.name}`;
    const used = redact(`${own}${config.paths?.updateContactInfo ?? op.path}`);
    const documented = `{base_url}${op.path}`;
    const text =
      `contactInfoBaseUrl: ${operation} is sent to ${op.method} ${used} instead of the spec's ${documented} ` +
      `at the {base_url} of the other operations, baseUrl ${redact(config.baseUrl)}`;
    out.push({ key: 'contactInfoBaseUrl', operation, documented, used, requirements: statesPath(op), text });
  }
  return out;
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
