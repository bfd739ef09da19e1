import { createServer } from 'node:http';

/**
 * A target that counts the requests it receives (each answered `{}`) on 127.0.0.1: a test that
 * local input is refused before anything is sent asserts that the count did not move.
 */
export interface CountingTarget {
  base: string;
  requests(): number;
  close(): Promise<void>;
}

export async function startCountingTarget(): Promise<CountingTarget> {
  let requests = 0;
  const server = createServer((_q, s) => {
    requests++;
    s.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    base: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests: () => requests,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
