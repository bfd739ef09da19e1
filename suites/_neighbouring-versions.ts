import type { CaseContext } from '../harness/case';
import type { HttpResult } from '../harness/http/client';

/**
 * "The version is part of the path: the disclosures, token revocation and transfer paths carry the
 * segment v1." A 404 at the spec's path says either that the base URL is wrong or that the target
 * serves the operation at another path. Before the run blames the base URL (harness/setup/proof.ts),
 * the same request that changes nothing is sent at the neighbouring version segments and without one:
 * served at one of them, the base URL is proven and the 404 at the spec's path is the target's failure.
 * Not served at any, they prove nothing and the base URL stays unproven. Paid only after a 404.
 */
export function neighbouringPaths(path: string): string[] {
  if (!/\/v1(?=\/|$)/.test(path)) return [];
  return ['/v2', '/v0', ''].map((v) => path.replace(/\/v1(?=\/|$)/, v));
}

/** After a 404 at the spec's path: the first neighbouring path that serves `send` (2xx), with its answer. */
export async function servedAtNeighbour(
  t: CaseContext,
  documentedPath: string,
  res: HttpResult,
  send: (path: string) => Promise<HttpResult>,
): Promise<{ path: string; res: HttpResult } | undefined> {
  if (res.status !== 404) return undefined;
  for (const path of neighbouringPaths(documentedPath)) {
    const probe = await t.step(`the spec's path answered 404: the same request at ${path}`, () => send(path));
    if (probe.status >= 200 && probe.status < 300) return { path, res: probe };
  }
  return undefined;
}
