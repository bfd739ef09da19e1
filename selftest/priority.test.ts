import { describe, expect, test } from 'vitest';
import { CaseContext, feature, type RunSettings } from '../harness/case';
import type { SendOptions } from '../harness/http/client';
import { Limiter } from '../harness/http/limiter';
import { referenceConfig } from '../reference-target/config';

/** A test that holds a lock others wait for sends first when every connection slot is busy. */
describe('request priority', () => {
  test('a freed slot goes to the waiting request of the highest priority, the earliest among equals', async () => {
    const l = new Limiter(1, 0);
    const hold = await l.acquire();
    const order: string[] = [];
    const wait = (name: string, priority: number) =>
      l.acquire(undefined, priority).then((release) => (order.push(name), release()));
    const all = [wait('a', 0), wait('b', 1), wait('c', 0), wait('d', 1)];
    hold();
    await Promise.all(all);
    expect(order).toEqual(['b', 'd', 'a', 'c']);
  });

  test("a case's priority goes with each of its requests to the client", async () => {
    const sent: SendOptions[] = [];
    const client = { send: async (o: SendOptions) => (sent.push(o), { status: 204, exchange: { seq: sent.length } }) };
    const settings: RunSettings = {
      config: referenceConfig({
        urls: {
          baseUrl: 'http://127.0.0.1:1/dbsi',
          authBaseUrl: 'http://127.0.0.1:1/identity',
          transfersBaseUrl: 'http://127.0.0.1:1/banking',
        },
      }),
      seed: 1,
      strict: false,
      runId: 'rtst',
      specUrl: 'spec.md',
    };
    const f = feature('disclosures', 'listUserDisclosures', []);
    const t = new CaseContext(settings, client as never, f, {
      title: 'x',
      requirements: [],
      run: async () => undefined,
    });
    await t.send({ operation: 'listUserDisclosures' });
    t.priority = 1; // it took a lock others wait for
    await t.send({ operation: 'listUserDisclosures' });
    expect(sent.map((o) => o.priority ?? 0)).toEqual([0, 1]);
  });
});
