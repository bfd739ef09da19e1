import { describe, expect, test } from 'vitest';
import type { CaseReport, Exchange } from '../harness/model';
import { flipOf } from '../harness/setup/flip';
import { SetupProof } from '../harness/setup/proof';

/**
 * Session 41, exchanges in, blame out (docs/diagnosis.md, "A hold-out set (session 41)"): the member of a relied group
 * the target's error quotes or names is the key named (harness/setup/group-members.ts), never a member the suite broke
 * on purpose, never every member where the error echoes the request; and a credential refused on one operation that
 * was already refused while the credential was served elsewhere did not expire (harness/setup/flip.ts).
 */

const GROUP = 'testData.transfer (fromAccountId, toAccountId, amount)';
const transfer = {
  fromAccountId: 'acct-1',
  toAccountId: 'acct-2',
  fromAccountHolderId: 'h-1',
  toAccountHolderId: 'h-2',
};

function exchange(seq: number, o: Partial<Exchange> & { status: number; body?: unknown; answer?: string }): Exchange {
  return {
    seq,
    base: 'transfersBaseUrl',
    credentials: ['transfers'],
    relies: [GROUP],
    operation: 'createTransfer',
    label: `request ${seq}`,
    request: { method: 'POST', url: 'http://127.0.0.1:1/t/db-transfers/v1/transfers', headers: {}, body: '' },
    response: { status: o.status, headers: {}, body: o.answer ?? '', truncated: false, bytes: 0 },
    startedAt: new Date(1_000_000 + seq * 1000).toISOString(),
    durationMs: 10,
    retries: [],
    curl: '',
    ...o,
    ...(o.body !== undefined
      ? { request: { method: 'POST', url: 'http://127.0.0.1:1/x', headers: {}, body: JSON.stringify(o.body) } }
      : {}),
  } as Exchange;
}

const keyOf = (e: Exchange) => {
  const s = new SetupProof([{ exchanges: [e], checks: [], requirements: [] } as unknown as CaseReport]).suspicion(e);
  return s?.kind === 'testData' ? s.key : s?.kind;
};

describe('the member of a group the error quotes or names is the key named (session 41)', () => {
  test('the value quoted names its member, the error naming another member by name does not win over it', () => {
    const body = { ...transfer, amount: { currencyCode: 'aed', amount: 0.01 } };
    const e = exchange(1, { status: 400, body, answer: '{"message":"currencyCode aed is not supported"}' });
    expect(keyOf(e)).toBe('testData.transfer.currencyCode');
    const both = exchange(2, { status: 400, body, answer: '{"message":"no account acct-1 for holder h-1"}' });
    expect(keyOf(both)).toBe('testData.transfer.fromAccountId and testData.transfer.fromAccountHolderId');
  });

  test('a member the suite broke on purpose (a number where a string is documented) is not named: the group is', () => {
    const body = { ...transfer, toAccountHolderId: 7, amount: { currencyCode: 'AED', amount: 0.01 } };
    const e = exchange(1, { status: 400, body, answer: '{"message":"toAccountHolderId must be a string"}' });
    expect(keyOf(e)).toBe(GROUP);
  });

  test('an error that echoes every value of the request points at none of them', () => {
    const body = { ...transfer, amount: { currencyCode: 'AED', amount: 0.01 } };
    const answer = JSON.stringify({ message: 'declined', request: body });
    expect(keyOf(exchange(1, { status: 400, body, answer }))).toBe(GROUP);
  });
});

describe('a refusal on one operation already refused while the credential was served elsewhere is no expiry', () => {
  const at = (seq: number, operation: string, status: number): Exchange =>
    exchange(seq, { status, operation, credentials: ['bearer'], relies: [] });

  test('the list refused from the first write on, every other operation served after: no flip', () => {
    const log = [at(1, 'listUserDisclosures', 200), at(2, 'createUserDisclosure', 204)];
    for (let i = 3; i < 8; i++) log.push(at(i, 'listUserDisclosures', 401));
    log.push(at(8, 'deleteUserDisclosure', 204));
    for (let i = 9; i < 13; i++) log.push(at(i, 'listUserDisclosures', 401));
    expect(flipOf(log)).toBeUndefined();
  });

  test('every operation refused from one moment on, a shape served before among them: the credential flipped', () => {
    const log = [at(1, 'listUserDisclosures', 200), at(2, 'createUserDisclosure', 204)];
    for (let i = 3; i < 8; i++) log.push(at(i, i % 2 ? 'listUserDisclosures' : 'createUserDisclosure', 401));
    expect(flipOf(log)?.refusals).toBe(5);
  });
});
