import { describe, expect, test } from 'vitest';
import { secretValues } from '../harness/config';
import { DbsiClient } from '../harness/http/client';
import { Redactor } from '../harness/redact';
import { referenceConfig } from '../reference-target/config';
import { startReferenceTarget } from '../reference-target/server';
import { renderExchange } from '../harness/evidence/exchange-text';

/** Issue 25: an exchange's duration is the target's time; the client's own waiting is shown apart. */
describe('exchange timing', () => {
  test("a request that waited for a connection slot shows the wait apart from the target's time", async () => {
    // Every answer at least 150 ms late; one request at a time: the second waits for the first.
    const target = await startReferenceTarget({ faults: [], latencyMs: 150 });
    try {
      const config = referenceConfig(target, { http: { concurrency: 1 } });
      const client = new DbsiClient(config, new Redactor(secretValues(config)));
      const send = () =>
        client.send({
          operation: 'listInstitutionDisclosures',
          headers: { Authorization: `Bearer ${config.credentials.bearerToken}` },
        });
      const [first, second] = await Promise.all([send(), send()]);
      await client.close();
      // Which one went first is the limiter's choice: the other waited at least the first one's answer.
      const [ran, waited] =
        (first.exchange.waitedMs ?? 0) < (second.exchange.waitedMs ?? 0) ? [first, second] : [second, first];
      // Relative, not a wall-clock guess: the one that ran first waited less than the one that waited for it.
      expect(ran.exchange.waitedMs ?? 0).toBeLessThan(waited.exchange.waitedMs!);
      expect(waited.exchange.waitedMs).toBeGreaterThanOrEqual(140);
      expect(waited.exchange.durationMs).toBeGreaterThanOrEqual(140);
      expect(renderExchange(waited.exchange)).toMatch(/waited [\d.]+ ms in the client before it was sent/);
    } finally {
      await target.close();
    }
  });
});
