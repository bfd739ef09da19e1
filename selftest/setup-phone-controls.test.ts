import { describe, expect, test } from 'vitest';
import type { CaseReport, CheckResult, Exchange } from '../harness/model';
import { regradeCase, SetupProof } from '../harness/setup/proof';

/**
 * Diagnosis by evidence for a configured phone number (harness/setup/phone-controls.ts): the number is blamed on the
 * operator only where its control (an update naming it as old and new, changing nothing) was refused before any
 * write of the customer was served. A refusal after an accepted write, with no such control refused, stands as the
 * target's, naming the number it rests on. Exchanges in, verdict out.
 */

const KEY = 'testData.customer.phoneNumber';
const ID = 'testData.customer.customerId';
const URL_ = 'http://127.0.0.1:1/dbsi/customers/c1:contact-info';
const MISMATCH = '{"message":"oldPhoneNumber does not match the phone number on record"}';

function update(seq: number, status: number, body: Record<string, unknown>, relies: string[]): Exchange {
  return {
    seq,
    base: 'baseUrl',
    credentials: ['bearerToken'],
    relies,
    operation: 'updateContactInfo',
    label: `update ${seq}`,
    request: { method: 'PUT', url: URL_, headers: {}, body: JSON.stringify({ userIdType: 'CUSTOMER_ID', ...body }) },
    response: { status, headers: {}, body: status >= 400 ? MISMATCH : '', truncated: false, bytes: 0 },
    startedAt: new Date(seq * 1000).toISOString(),
    durationMs: 1,
    retries: [],
    curl: '',
  };
}

const keep = { phoneNumber: { oldPhoneNumber: '5550100', newPhoneNumber: '5550100' } };
const change = { phoneNumber: { oldPhoneNumber: '5550100', newPhoneNumber: '5551234' } };
const emailAlone = { email: { emailAddress: 'a@example.com' } };

function failedCase(exchanges: Exchange[], refusal: Exchange): CaseReport {
  const check: CheckResult = {
    check: 'success_status',
    requirement: 'OP10-RULE1-SUPPLIED-OBJECTS',
    grade: 'MUST',
    section: '10. Update contact information',
    outcome: 'failed',
    description: 'is served',
    exchange: refusal.seq,
  };
  return {
    id: 'c',
    area: 'contact-info',
    operation: '10. Update contact information',
    title: 'a case',
    requirements: ['OP10-RULE1-SUPPLIED-OBJECTS'],
    outcome: 'failed',
    reason: 'failed',
    checks: [check],
    exchanges,
    durationMs: 1,
    parameters: {},
  };
}

describe('a configured phone number is blamed only by its control', () => {
  test('the control refused before any write: the operator’s number (could not test, naming it)', () => {
    const proof = update(1, 409, keep, [ID, KEY]);
    const refusal = update(2, 409, change, [ID, KEY]);
    const c = failedCase([proof, refusal], refusal);
    const out = regradeCase(c, new SetupProof([c]));
    expect(out.outcome).toBe('could-not-test');
    expect(out.setup?.key).toBe(KEY);
  });

  test('never disproven, refused after an accepted update that supplied only the e-mail: the failure stands', () => {
    // The proof got no answer (a timeout): nothing proved or disproved the number.
    const proof = { ...update(1, 0, keep, [ID, KEY]), response: undefined };
    const email = update(2, 204, emailAlone, [ID]);
    const refusal = update(3, 409, change, [ID, KEY]);
    const c = failedCase([proof, email, refusal], refusal);
    const out = regradeCase(c, new SetupProof([c]));
    expect(out.outcome).toBe('failed');
    expect(out.setup).toBeUndefined();
    expect(out.checks[0]!.note).toMatch(/setup: judged as the target's .*it rests on testData\.customer\.phoneNumber/);
    expect(out.reason).toContain(KEY);
  });

  test('a control refused only after a write was served disproves nothing: the failure stands', () => {
    const email = update(1, 204, emailAlone, [ID]);
    const control = update(2, 409, keep, [ID, KEY]);
    const refusal = update(3, 409, change, [ID, KEY]);
    const c = failedCase([email, control, refusal], refusal);
    const out = regradeCase(c, new SetupProof([c]));
    expect(out.outcome).toBe('failed');
    expect(out.checks[0]!.note).toContain(KEY);
  });

  test('the number proven (its control served): never blamed, and no note', () => {
    const proof = update(1, 204, keep, [ID, KEY]);
    const refusal = update(2, 409, change, [ID, KEY]);
    const c = failedCase([proof, refusal], refusal);
    const out = regradeCase(c, new SetupProof([c]));
    expect(out).toBe(c);
  });
});
