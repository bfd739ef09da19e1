import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authenticationArea } from './areas/authentication';
import { contactInfoArea } from './areas/contact-info';
import { disclosuresArea } from './areas/disclosures';
import { freedomWrapped, withProfiles } from './areas/freedom';
import { freedom2Wrapped, withProfiles2 } from './areas/freedom2';
import { holdoutWrapped } from './areas/holdout';
import { holdout2Wrapped } from './areas/holdout2';
import { holdout3Wrapped } from './areas/holdout3';
import { holdout4Wrapped } from './areas/holdout4';
import { holdout5Wrapped } from './areas/holdout5';
import { moneyMovementArea } from './areas/money-movement';
import type { AreaContext, AreaRoutes } from './areas/types';
import { checkFaultNames } from './faults';
import { fixtureSet, type FixtureSetName } from './fixture-sets';
import { PREFIXES } from './fixtures';
import { compile, json, readRequest, writeResponse, type Route } from './http';
import { ReferenceState } from './state';

export interface ReferenceOptions {
  /** Named faults to switch on (see reference-target/faults/). */
  faults?: readonly string[];
  /** Added delay before every answer, in ms (benchmarks). */
  latencyMs?: number;
  port?: number;
  /** What the target holds at the start (reference-target/fixture-sets.ts): `default` unless told. */
  fixtures?: FixtureSetName;
  /**
   * A spike arrest like a real vendor's: above this many requests in any 1 s (a sliding window, across
   * all operations), a request is answered THROTTLED_ANSWER and not processed. Unset: no limit.
   */
  throttlePerSecond?: number;
}

/**
 * What a vendor's spike arrest answers, as its public documentation shows it: a 500, never a 429.
 * The request was not processed.
 */
export const THROTTLED_ANSWER = { status: 500, body: { code: 'CMN_90002', message: 'Spike limit violation' } } as const;

/**
 * Counts the requests processed in the last second; `admit` says whether one more may be. Only processed
 * requests count: a client that slows down is served again within a second.
 */
export function spikeArrest(perSecond: number, now: () => number = Date.now): { admit(): boolean } {
  const processed: number[] = [];
  return {
    admit() {
      const t = now();
      while (processed.length && processed[0]! <= t - 1000) processed.shift();
      if (processed.length >= perSecond) return false;
      processed.push(t);
      return true;
    },
  };
}

export interface ReferenceTarget {
  urls: { baseUrl: string; authBaseUrl: string; transfersBaseUrl: string };
  state: ReferenceState;
  /** Every request that reached the target: method and path (with prefix). */
  received: Array<{ method: string; path: string }>;
  close(): Promise<void>;
}

/** An area with the behaviours of the hold-out sets' faults and of the conformant variants around its routes. */
function wrapped(ctx: AreaContext, a: AreaRoutes): AreaRoutes {
  const holdouts = holdout5Wrapped(
    ctx,
    holdout4Wrapped(ctx, holdout3Wrapped(ctx, holdout2Wrapped(ctx, holdoutWrapped(ctx, a)))),
  );
  return freedom2Wrapped(ctx, freedomWrapped(ctx, holdouts));
}

/** Start the embedded reference target on 127.0.0.1 (a free port unless one is given). */
export async function startReferenceTarget(opts: ReferenceOptions = {}): Promise<ReferenceTarget> {
  const faults = new Set(withProfiles(withProfiles2(opts.faults ?? [])));
  checkFaultNames([...faults]);
  const state = new ReferenceState(fixtureSet(opts.fixtures ?? 'default'));
  const ctx: AreaContext = { state, fault: (n) => faults.has(n) };
  const areas = [disclosuresArea(ctx), authenticationArea(ctx), moneyMovementArea(ctx), contactInfoArea(ctx)].map((a) =>
    wrapped(ctx, a),
  );
  // One mount per prefix: several areas share {baseUrl} (disclosures and contact-info).
  const mounts = [...new Set(areas.map((a) => PREFIXES[a.base]))].map((prefix) => ({
    prefix,
    routes: areas
      .filter((a) => PREFIXES[a.base] === prefix)
      .flatMap((a) => a.routes)
      .map((r: Route) => ({ route: r, match: compile(r) })),
  }));
  const received: ReferenceTarget['received'] = [];
  const throttle = opts.throttlePerSecond;
  if (throttle !== undefined && !(Number.isInteger(throttle) && throttle >= 1)) {
    throw new Error(`throttlePerSecond must be a whole number from 1, not ${throttle}`);
  }
  const arrest = opts.throttlePerSecond === undefined ? undefined : spikeArrest(opts.throttlePerSecond);

  const server: Server = createServer(async (req, res) => {
    try {
      const rawPath = (req.url ?? '/').split('?')[0]!;
      received.push({ method: req.method ?? '', path: rawPath });
      const mount = mounts.find((m) => rawPath === m.prefix || rawPath.startsWith(m.prefix + '/'));
      const r = await readRequest(req, mount?.prefix.length ?? 0);
      let answer = json(404, { error: 'not_found', message: `no operation at ${req.method} ${rawPath}` });
      if (arrest && !arrest.admit()) {
        answer = json(THROTTLED_ANSWER.status, { ...THROTTLED_ANSWER.body });
      } else if (mount) {
        const hit = mount.routes.find(({ match }) => match(r.method, r.path));
        if (hit) {
          r.params = hit.match(r.method, r.path)!;
          answer = await hit.route.handler(r);
        } else {
          const allowed = mount.routes
            .filter(({ route, match }) => match(route.method, r.path))
            .map(({ route }) => route.method);
          if (allowed.length)
            answer = { status: 405, headers: { allow: allowed.join(', ') }, body: { error: 'method_not_allowed' } };
        }
      }
      if (opts.latencyMs) await new Promise((resolve) => setTimeout(resolve, opts.latencyMs));
      writeResponse(res, answer);
    } catch (e) {
      writeResponse(res, json(500, { error: 'internal', message: (e as Error).message }));
    }
  });
  // Longer than any client keeps an idle connection (the suite's: 4 s): a client that reuses a connection the server
  // is closing has its request reset, a race that grows with the load of the machine (issue 34: under
  // npm run test:stress, writes of the run were reset and graded could not test).
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    urls: {
      baseUrl: origin + PREFIXES.baseUrl,
      authBaseUrl: origin + PREFIXES.authBaseUrl,
      transfersBaseUrl: origin + PREFIXES.transfersBaseUrl,
    },
    state,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
