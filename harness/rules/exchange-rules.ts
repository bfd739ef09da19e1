import type { OperationKey } from '../operations';
import { listInstitutionDisclosures, writeInstitutionDisclosure } from './institution-disclosures';
import { listUserDisclosures, noContentWrite } from './user-disclosures';
import type { Seen, Verifier } from './exchange';
import { updateContactInfo } from './contact-info';
import { revokeToken } from './revocation';
import { createTransfer } from './transfers';
import { labelledAsJson } from './media-type';

/**
 * The catalog's rules per exchange, one set for both sources: an active case holds the exchange it drove
 * to them (CaseContext.judge), the recorded source every exchange of a capture (harness/traffic/judge.ts).
 * A rule judges only where the exchange itself shows that it is in play, never from a guess: a refused
 * request may have had credentials the target does not accept (unless the log knows they are the
 * operator's, Seen.authority), and a 404 may mean "not found". State rules, across the log, are in
 * sequence-rules.ts.
 */
/** The rules of each documented operation of its own. */
const OPERATION_RULES: Record<OperationKey, (s: Seen, v: Verifier) => void> = {
  listInstitutionDisclosures,
  createInstitutionDisclosure: writeInstitutionDisclosure(
    'OP2-REQUEST',
    'OP2-RESPONSE',
    'institution-disclosure-create-response',
  ),
  changeInstitutionDisclosure: writeInstitutionDisclosure(
    'OP3-REQUEST',
    'OP3-RESPONSE',
    'institution-disclosure-change-response',
  ),
  listUserDisclosures,
  createUserDisclosure: noContentWrite('OP5-REQUEST', 'OP5-STATUS-204'),
  changeUserDisclosure: noContentWrite('OP6-REQUEST', 'OP6-STATUS-204'),
  changeUserDisclosureById: noContentWrite('OP6-REQUEST-BY-ID', 'OP6-STATUS-204'),
  deleteUserDisclosure: noContentWrite('OP7-REQUEST', 'OP7-STATUS-204'),
  deleteUserDisclosureById: noContentWrite('OP7-REQUEST-BY-ID', 'OP7-STATUS-204'),
  revokeToken,
  createTransfer,
  updateContactInfo,
};

/** The per-exchange rules of each documented operation, with what every operation shares (media-type.ts). */
export const EXCHANGE_RULES = Object.fromEntries(
  Object.entries(OPERATION_RULES).map(([op, rule]) => [op, labelledAsJson(rule)]),
) as Record<OperationKey, (s: Seen, v: Verifier) => void>;
