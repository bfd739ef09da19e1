import type { Exchange } from '../model';
import { errorExcerpt, ownWords, withoutPath } from './error-names';
import { membersNamed, type Member } from './group-members';

/**
 * What the target's error names among the configured values a refusal rests on (session 41), beyond the keys the
 * driver named: the members of a group (group-members.ts), and the callingAppId header every disclosures request
 * carries. Vary one thing: a value the run proved (a request carrying it served, or the target's own lists showing
 * it) is never what to check, even where the error names it: that refusal is the target's.
 */

/** The members of the relied keys the error names, split into those the run proved and the others. */
export function namedMembers(
  e: Exchange,
  keys: readonly string[],
  proven: (m: Member, e: Exchange) => boolean,
): { unproven: Member[]; proven: Member[] } {
  const named = membersNamed(e, keys, withoutPath(e));
  return { unproven: named.filter((m) => !proven(m, e)), proven: named.filter((m) => proven(m, e)) };
}

/** The callingAppId header's key (the configuration's callingAppId, sent with every disclosures operation). */
export const CALLING_APP_KEY = 'callingAppId';

const callingApp = (e: Exchange): string | undefined => {
  const v = Object.entries(e.request.headers ?? {}).find(([k]) => k.toLowerCase() === 'callingappid')?.[1];
  return typeof v === 'string' ? v : undefined;
};

/**
 * The configured callingAppId: proven where a request carrying it was served. A refusal (401, 403 or another 4xx) whose
 * error names callingAppId or quotes its value, no request carrying that value having been served, is about it: not
 * about the token beside it (a gateway that knows the application by this header).
 */
export class CallingApps {
  private readonly served = new Set<string>();

  observe(e: Exchange): void {
    const status = e.response?.status ?? 0;
    const app = callingApp(e);
    if (app !== undefined && status >= 200 && status < 300) this.served.add(app);
  }

  /** The refusal names the configured callingAppId, which no served request carried. */
  suspect(e: Exchange): boolean {
    const status = e.response?.status ?? 0;
    const app = callingApp(e);
    if (app === undefined || status < 400 || status >= 500 || this.served.has(app)) return false;
    const error = withoutPath(e);
    return /callingappid|calling[ _-]app/i.test(error) || (app.length >= 3 && error.includes(app));
  }
}

/** A refusal of the members the error names: every one a candidate, all of them the key. */
export function dataSuspicion(members: readonly Member[]): { kind: 'testData'; key: string; candidates: string[] } {
  const keys = members.map((m) => m.key);
  return { kind: 'testData', key: keys.join(' and '), candidates: keys };
}

/** Why a refusal whose error names only members the run proved is the target's, for its failure's note. */
export function provenWords(proven: readonly Member[]): string | undefined {
  if (!proven.length) return undefined;
  const keys = proven.map((m) => m.key.split(' ')[0]).join(', ');
  return `its error names ${keys}, a value the run proved (a served request, or the target's own lists)`;
}

/**
 * The errors of the run by operation, status and text: a refusal is the target's by its own words where another request
 * of the operation got the very same error and it named a member no configured value stands for (a paymentOption).
 * The keys the refusal rests on count for both: a member another request carried without relying on it (a
 * revocation's institutionId) is still a configured value.
 */
export class SameErrors {
  private byError?: Map<string, Exchange[]>;

  constructor(
    private readonly all: () => Iterable<Exchange>,
    private readonly operation: (e: Exchange) => string,
  ) {}

  reset(): void {
    this.byError = undefined;
  }

  named(e: Exchange, keys: readonly string[]): boolean {
    if (!this.byError) {
      this.byError = new Map();
      for (const x of this.all()) {
        if (!x.response || x.response.status < 400) continue;
        const at = this.at(x);
        this.byError.set(at, [...(this.byError.get(at) ?? []), x]);
      }
    }
    const same = this.byError.get(this.at(e)) ?? [];
    return same.some((x) => ownWords(x, [...(x.relies ?? []), ...keys]) !== undefined);
  }

  private at(e: Exchange): string {
    return `${this.operation(e)} ${e.response?.status} ${errorExcerpt(e)}`;
  }
}

/**
 * The very answer (operation, status, error) the target gave where it stopped serving a request it had served
 * (`changed`, SetupProof.firstStoppedServing), to a request sent after that one was served (`since`): the answer
 * cannot tell a value from one the target proved, so it is no evidence on the values this request carries (session
 * 41: a path that disappears after a write).
 */
export function sameAnswerAsChanged(e: Exchange, changed: Exchange | undefined, since: number | undefined): boolean {
  if (!changed || since === undefined || e.seq <= since || e.operation !== changed.operation) return false;
  return e.response?.status === changed.response?.status && errorExcerpt(e) === errorExcerpt(changed);
}

/**
 * The request the target served earlier in the run whose very repeat (method and URL, query included) `e` is, answered
 * 404 now: not a DELETE, and nothing at that URL deleted since (the value was proven, then refused). Else undefined.
 */
export function servedEarlier(all: Iterable<Exchange>, e: Exchange): Exchange | undefined {
  if (e.response?.status !== 404 || e.request.method === 'DELETE') return undefined;
  const at = [...all].filter((x) => x.seq < e.seq && x.request.url === e.request.url);
  const ok = (x: Exchange) => (x.response?.status ?? 0) >= 200 && (x.response?.status ?? 0) < 300;
  const served = at.filter((x) => ok(x) && x.request.method === e.request.method);
  const deleted = at.some((x) => ok(x) && x.request.method === 'DELETE' && x.seq > (served[0]?.seq ?? 0));
  return deleted ? undefined : served[0];
}
