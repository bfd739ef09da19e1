import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseHar } from '../harness/traffic/har';
import { judgeHar } from '../harness/traffic/run';
import { runAreas } from './_reference';

/**
 * Operation 9 is judged by one rule (harness/rules/transfers.ts) for both sources. Where the log knows the
 * credentials (an active run, Seen.authority), every answer is held to the rule the request is about, as the
 * active suite always did; a capture, which cannot tell, judges the same answers only by their error body.
 */

const ERROR = JSON.stringify({ code: 'E500', message: 'internal error' });

/** A transfers base URL that answers 500 with a documented error body to everything. */
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(500, { 'content-type': 'application/json' }).end(ERROR));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const checksOf = (c: { checks: Array<{ requirement: string; outcome: string }> }) =>
  c.checks.map((k) => `${k.requirement} ${k.outcome}`);

describe('operation 9 answered 500 to every request', () => {
  test(
    'in an active run: the operator-token requests break their request rule, made-up or no credentials ' +
      'OP9-AUTH-401, the forbidden token OP9-AUTH-403; an invalid request warns once, under ' +
      'OP9-INVALID-ANSWERS-400, with no error-body verdict after it',
    async () => {
      const { cases } = await runAreas({
        areas: ['money-movement'],
        asSent: true,
        configure: (cfg) => ({ ...cfg, transfersBaseUrl: url, budgets: { transfersAcceptedByMistake: 1000 } }),
      });
      const find = (title: string) => cases.find((c) => c.title.startsWith(title))!;
      expect(checksOf(find('creates a one-time transfer'))).toEqual(['OP9-REQUEST failed']);
      expect(checksOf(find('creates a scheduled transfer'))).toEqual(['OP9-REQUEST-EVERY-MEMBER failed']);
      expect(checksOf(find('answers 401 with code and message without a token'))).toEqual(['OP9-AUTH-401 failed']);
      expect(checksOf(find('answers 401 with code and message with an invalid token'))).toEqual([
        'OP9-AUTH-401 failed',
      ]);
      expect(checksOf(find('answers 403'))).toEqual(['OP9-AUTH-403 failed']);
      const invalid = cases.filter((c) => c.title.startsWith('refuses'));
      expect(invalid.length).toBeGreaterThan(3);
      for (const c of invalid) {
        expect(c.outcome, c.title).toBe('warning');
        expect(checksOf(c), c.title).toEqual([`${c.requirements[0]} passed`, 'OP9-INVALID-ANSWERS-400 failed']);
      }
    },
  );

  test('in a capture: only the error body is judged (a refusal there may be about the token)', async () => {
    const body = { fromAccountId: 'a-1', toAccountId: 'a-2', amount: { currencyCode: 'AED', amount: 0.01 } };
    const entry = (headers: Array<{ name: string; value: string }>, text: string) => ({
      startedDateTime: '2026-11-20T10:00:00.000Z',
      time: 5,
      request: {
        method: 'POST',
        url: 'https://bank.example/fin/db-transfers/v1/transfers',
        headers,
        postData: { mimeType: 'application/json', text },
      },
      response: { status: 500, headers: [], content: { text: ERROR } },
    });
    const bearer = { name: 'authorization', value: 'Bearer t-0123456789' };
    const transactionId = { name: 'transactionid', value: 'x-1' };
    const har = parseHar(
      JSON.stringify({
        log: {
          entries: [
            entry([bearer, transactionId], JSON.stringify(body)),
            entry([transactionId], JSON.stringify(body)),
            entry([bearer], JSON.stringify(body)),
            entry([bearer, transactionId], JSON.stringify({ ...body, toAccountId: 7 })),
          ],
        },
      }),
    );
    const judged = await judgeHar(har, undefined, { file: 'x.har', strict: false, specUrl: 's' });
    const verdicts = new Set(judged.cases.flatMap((c) => c.checks.map((k) => k.requirement)));
    expect([...verdicts].filter((r) => r.startsWith('OP9-'))).toEqual(['OP9-ERROR-SHAPE']);
  });
});
