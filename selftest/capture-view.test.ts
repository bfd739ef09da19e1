import { describe, expect, test } from 'vitest';
import type { HttpResult } from '../harness/http/client';
import type { Exchange } from '../harness/model';
import type { OperationKey } from '../harness/operations';
import { captureView } from '../harness/rules/capture-view';
import { loggedExchange } from '../harness/http/logged';
import type { Seen } from '../harness/log/entry';
import { judgeExchange } from '../harness/rules/judge';

/**
 * The capture view (harness/rules/capture-view.ts): an active case's failure judged once more as a
 * capture of the same exchange shows it. It is what selftest/_recorded-run.ts derives the faults no
 * capture can show from, so it must tell a failure a capture shows from one that rests on what only
 * the active run knows.
 */

let seq = 0;

/** One exchange of an active run as the client logs it: `configured` when it carried the operator's credentials. */
function exchange(o: {
  operation: OperationKey;
  status: number;
  body?: unknown;
  configured?: boolean;
  path?: string;
}): Seen {
  seq += 1;
  const text = o.body === undefined ? '' : JSON.stringify(o.body);
  const url = `http://127.0.0.1:1${o.path ?? '/institution-disclosures'}`;
  const headers = { Authorization: 'Bearer abc', transactionId: 't-1', CallingAppId: 'app', InstitutionId: '1001' };
  const record = { method: 'GET', url, headers };
  const ex = {
    seq,
    operation: o.operation,
    request: record,
    startedAt: new Date(0).toISOString(),
    durationMs: 1,
    retries: [],
    curl: '',
    ...(o.configured ? { credentials: ['credentials.bearerToken'] } : {}),
  } as unknown as Exchange;
  const res: HttpResult = {
    status: o.status,
    headers: { 'content-type': 'application/json' },
    text,
    truncated: false,
    json: o.body,
    exchange: ex,
  };
  const sent = { method: 'GET', url, headers, startMs: seq, endMs: seq + 0.5 };
  const logged = loggedExchange({ operation: o.operation, headers, path: o.path }, sent, res)!;
  return { ...logged, keepsAuthorization: true };
}

/** The outcomes the rules give `requirement` on the exchange as the active run logged it. */
function activeOutcomes(s: Seen, requirement: string): string[] {
  const outcomes: string[] = [];
  judgeExchange(s, { verify: (_r, v) => (outcomes.push(v.outcome), v.outcome !== 'failed') }, [requirement]);
  return outcomes;
}

describe('the capture view of a failure', () => {
  test('a body that breaks the schema: a capture of it fails the rule too', () => {
    const s = exchange({ operation: 'listInstitutionDisclosures', status: 200, body: { disclosures: [] } });
    expect(activeOutcomes(s, 'OP1-RESPONSE-ENVELOPE')).toContain('failed');
    expect(captureView({ log: [s], single: true }, 'OP1-RESPONSE-ENVELOPE')).toEqual({ fails: true });
  });

  test("a refusal of the operator's credentials: a capture cannot tell whose they were, and says so", () => {
    const s = exchange({ operation: 'listInstitutionDisclosures', status: 403, body: {}, configured: true });
    expect(activeOutcomes(s, 'OP1-REQUEST')).toContain('failed');
    const view = captureView({ log: [s], single: true }, 'OP1-REQUEST');
    expect(view.fails).toBe(false);
    expect(view.why).toMatch(/gives no verdict on it in a capture, which cannot tell .*operator's credentials/);
  });

  test('an exchange sent at a path other than the documented one is not in the capture view', () => {
    const s = exchange({
      operation: 'listInstitutionDisclosures',
      status: 200,
      body: { disclosures: [] },
      path: '/v1/institution-disclosures',
    });
    expect(activeOutcomes(s, 'OP1-RESPONSE-ENVELOPE')).toContain('failed');
    const view = captureView({ log: [s], single: true }, 'OP1-RESPONSE-ENVELOPE');
    expect(view.fails).toBe(false);
    expect(view.why).toMatch(/maps no exchange sent at a path other than the documented one/);
  });
});
