import type { OperationKey } from '../operations';
import { INSTITUTION_DISCLOSURE_RULES } from './institution-disclosures';
import { USER_DISCLOSURE_RULES } from './user-disclosures';
import type { OperationRule, OperationRules } from './exchange';
import { CONTACT_INFO_RULES } from './contact-info';
import { REVOCATION_RULES } from './revocation';
import { TRANSFER_RULES } from './transfers';
import { labelledAsJson } from './media-type';

/**
 * The catalog's rules per exchange, one set for both sources: an active case holds the exchange it drove
 * to them (CaseContext.judge), the recorded source every exchange of a capture (harness/traffic/judge.ts).
 * A rule judges only where the exchange itself shows that it is in play, never from a guess: a refused
 * request may have had credentials the target does not accept (unless the log knows they are the
 * operator's, Seen.authority), and a 404 may mean "not found". State rules, across the log, are in
 * sequence-rules.ts.
 */

/**
 * Every area's rules (each area's file exports its record): a new operation's rule goes in its area's file
 * only. selftest/operation-checklist.test.ts requires one rule per operation, named by one area.
 */
export const AREA_RULES: readonly OperationRules[] = [
  INSTITUTION_DISCLOSURE_RULES,
  USER_DISCLOSURE_RULES,
  REVOCATION_RULES,
  TRANSFER_RULES,
  CONTACT_INFO_RULES,
];

/** The per-exchange rules of each documented operation, with what every operation shares (media-type.ts). */
export const EXCHANGE_RULES = Object.fromEntries(
  AREA_RULES.flatMap((rules) => Object.entries(rules)).map(([op, rule]) => [op, labelledAsJson(rule!)]),
) as Record<OperationKey, OperationRule>;
