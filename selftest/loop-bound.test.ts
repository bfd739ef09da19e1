import { createServer, type Server, connect } from 'node:net';
import { afterAll, describe, expect, test } from 'vitest';
import { Deadline } from '../harness/http/deadline';
import { afterIo, timeoutSignal } from '../harness/http/loop-bound';

/**
 * A bound reads what arrived before it ends (harness/http/loop-bound.ts): a process starved of CPU past a bound
 * (a busy machine, the stress mode) still sees the answer that came in time. Each test starves the thread on
 * purpose (a busy loop, no event handled) while an answer arrives, so the bound and the answer are both due when
 * it runs again: a plain timer ran first there (the reachability preflight, once, in the stress mode).
 */
const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/** A server on 127.0.0.1 that writes "hi" to every connection; its port. */
async function greeter(): Promise<number> {
  const s = createServer((c) => c.end('hi'));
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return (s.address() as { port: number }).port;
}

const starve = (ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until); // no event is handled meanwhile
};

/** A connection's first data, and the moment the loop can see it: after the connection is made. */
async function greeting(port: number): Promise<{ data: Promise<string> }> {
  const socket = connect({ host: '127.0.0.1', port });
  await new Promise((r) => socket.once('connect', r));
  return { data: new Promise<string>((r) => socket.once('data', (d) => (socket.destroy(), r(d.toString())))) };
}

describe('a bound that ends while the process is starved', () => {
  test('afterIo: data received meanwhile is handled first; a cleared bound never runs', async () => {
    const order: string[] = [];
    const { data } = await greeting(await greeter());
    void data.then(() => order.push('data'));
    const bound = afterIo(10, () => order.push('bound'));
    const cleared = afterIo(10, () => order.push('cleared'));
    cleared.clear();
    starve(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(order).toEqual(['data', 'bound']);
    bound.clear();
  });

  test('a request answered in time is not DeadlineExceeded, and its signal is not aborted as it is read', async () => {
    const { data } = await greeting(await greeter());
    const deadline = new Deadline(10);
    const signal = timeoutSignal(10);
    const guarded = deadline.guard(data.then((d) => ({ d, aborted: signal.aborted })));
    starve(200);
    await expect(guarded).resolves.toEqual({ d: 'hi', aborted: false });
    deadline.clear();
    await new Promise((r) => setTimeout(r, 50));
    expect(signal.aborted, 'the bound still ends').toBe(true);
    expect((signal.reason as DOMException).name).toBe('TimeoutError');
  });
});
