import type { CaseReport, Exchange } from '../model';

/**
 * Transport is named (issue 31): where requests got no answer for a reason of the URL itself, the
 * diagnosis says so and names the key. The evidence is the client's error (harness/http/client.ts,
 * tls-errors.ts): a TLS handshake with a port that answers plain HTTP (ERR_SSL_WRONG_VERSION_NUMBER),
 * a plain HTTP connection closed without an answer by a port that completes a TLS handshake, a proxy
 * through which nothing in the run was answered.
 */
export interface TransportFinding {
  key: string;
  problem: string;
  tests: string[];
}

function cause(e: Exchange, runAnswered: boolean): { key: string; problem: string } | undefined {
  const msg = e.error?.message ?? '';
  const base = e.base ?? 'baseUrl';
  if (/does not speak TLS/.test(msg))
    return {
      key: base,
      problem:
        `${base} is https:// but its port answers plain HTTP (${msg}): ` +
        `check ${base}; http:// rather than https://?`,
    };
  if (/the port speaks TLS/.test(msg))
    return {
      key: base,
      problem: `${base} is http:// but its port speaks TLS (${msg}): check ${base}; https:// rather than http://?`,
    };
  if (/through http\.proxyUrl/.test(msg) && !runAnswered)
    return {
      key: 'http.proxyUrl',
      problem: `nothing sent through the proxy was answered in this run (${msg}): check http.proxyUrl`,
    };
  return undefined;
}

/** One finding per key, with the tests that could not test because of it. */
export function transportFindings(cases: readonly CaseReport[]): TransportFinding[] {
  const all = cases.flatMap((c) => c.exchanges);
  const runAnswered = all.some((e) => e.response !== undefined);
  const byKey = new Map<string, TransportFinding>();
  for (const c of cases) {
    for (const e of c.exchanges) {
      if (!e.error || e.response) continue;
      const found = cause(e, runAnswered);
      if (!found) continue;
      const f = byKey.get(found.key) ?? byKey.set(found.key, { ...found, tests: [] }).get(found.key)!;
      if (c.outcome === 'could-not-test' && !c.setup && !f.tests.includes(c.title)) f.tests.push(c.title);
    }
  }
  return [...byKey.values()];
}
