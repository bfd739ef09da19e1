import { CREDENTIAL_SOURCES, type CredentialId } from '../credentials';
import { OPERATIONS, type BaseUrlKey, type OperationKey } from '../operations';
import { requirement } from '../../requirements';
import type { CaseReport, Exchange } from '../model';
import { afterFlip, flipOf, type Flip } from './flip';
import { errorNamesValue, ownWords, quotesValue } from './error-names';
import { PhoneControls } from './phone-controls';
import { ListedInstitutions, type Contradiction } from './listed-values';
import * as nv from './named-values';
import { finestKeys, isGroup, type Member } from './group-members';

export { suspicionKey, suspicionText } from './suspicion-text';
export { regradeCase } from './regrade';

/**
 * What a run proved about the operator's setup, from the exchanges alone: the suite cannot tell a
 * valid credential or a right base URL from a wrong one except by what the target serves.
 * - A credential is proven when a request carrying it (exactly as configured) was answered 2xx.
 * - A base URL is proven when anything sent there was answered other than 404: a 405 says the path exists.
 * - A refusal proves a rule only where the same method and path were served (2xx) with a configured
 *   credential in the same run: the control. A 404 never proves an auth rule.
 */
export class SetupProof {
  private readonly servedCredentials = new Set<string>();
  /** A request that carried a near variant of a credential instead of it and got past authentication. */
  private readonly servedNear = new Map<string, Exchange>();
  /** Credentials answered with a refusal of something else than them (400 …), by operation. */
  private readonly passedAuth = new Map<string, Set<string>>();
  /** Operations that refused (401/403) a request without any configured credential. */
  private readonly refusedWithout = new Set<string>();
  private readonly servedData = new Set<string>();
  private readonly refusedCredentials = new Map<string, Exchange[]>();
  private readonly provenBases = new Set<string>();
  private readonly unprovenBaseAnswers = new Map<string, Exchange[]>();
  private readonly controls = new Set<string>();
  private readonly bySeq = new Map<number, Exchange>();
  /** Every answered exchange that carried each configured credential, and when it flipped (cached). */
  private readonly carried = new Map<string, Exchange[]>();
  private readonly flips = new Map<string, Flip | undefined>();
  /** The configured credentials sent to each operation: what a missing control points at. */
  private readonly operationCredentials = new Map<string, Set<string>>();
  /**
   * By operation number: the keys of the setup that kept its tests from sending a request with the configured
   * credentials (tests could not test because of them, e.g. a configured value a control disproved).
   */
  private readonly blockedOperations = new Map<number, Set<string>>();
  /** The controls of configured phone numbers, and the writes that may have moved one since (phone-controls.ts). */
  private readonly phones = new PhoneControls();
  /** The institutionIds operation 1 lists: a write naming none of them rests on a value the target contradicts. */
  private readonly institutions = new ListedInstitutions();
  private readonly apps = new nv.CallingApps(); // the callingAppId values served (named-values.ts)

  /**
   * `embedded`: the run's target is the embedded reference target, whose setup is the suite's own and
   * cannot be wrong: a refusal there is the target's, never blamed on the setup.
   */
  constructor(
    cases: readonly CaseReport[] = [],
    private readonly opts: { embedded?: boolean } = {},
  ) {
    for (const c of cases) this.observe(c);
  }

  /** Take in a case's exchanges (a run's reports, in any order). */
  observe(c: CaseReport): void {
    for (const e of c.exchanges) this.observeExchange(e);
    if (c.outcome !== 'could-not-test' || !c.setup) return;
    for (const n of c.requirements.flatMap((id) => requirement(id).operations))
      this.blockedOperations.set(n, new Set([...(this.blockedOperations.get(n) ?? []), c.setup.key]));
  }

  private observeExchange(e: Exchange): void {
    this.bySeq.set(e.seq, e);
    this.blocking = undefined;
    this.sameErrors.reset();
    this.stopped = undefined;
    const status = e.response?.status;
    if (status === undefined) return;
    this.phones.observe(e);
    this.institutions.observe(e);
    this.apps.observe(e);
    const served = status >= 200 && status < 300;
    for (const id of e.credentials ?? []) {
      this.carried.set(id, [...(this.carried.get(id) ?? []), e]);
      this.flips.delete(id);
      if (served) this.servedCredentials.add(id);
      else if (status === 401 || status === 403)
        this.refusedCredentials.set(id, [...(this.refusedCredentials.get(id) ?? []), e]);
    }
    if (served) for (const key of e.relies ?? []) this.servedData.add(key);
    // A near variant served, or past authentication (another refusal than 401/403: a 400 to the body).
    const past = served || (status >= 400 && status < 500 && ![401, 403, 404, 405, 429].includes(status));
    if (past) for (const id of e.nearVariants ?? []) if (!this.servedNear.has(id)) this.servedNear.set(id, e);
    if (!e.credentials?.length && (status === 401 || status === 403)) this.refusedWithout.add(operationKey(e));
    if (status >= 400 && status < 500 && ![401, 403, 404, 405, 429].includes(status))
      for (const id of e.credentials ?? [])
        this.passedAuth.set(id, new Set([...(this.passedAuth.get(id) ?? []), operationKey(e)]));
    // A 405 names a method the path does not take: the path, and so the base URL, exists. A 404 whose error quotes a
    // value the request relied on or its path carried (a customer id) is the application's own word on it. A declared
    // path likewise.
    const own = status !== 404 || [...(e.relies ?? []), ...pathValues(e)].some((k) => quotesValue(e, k));
    for (const at of [e.base, e.declaredPath])
      if (at && own) this.provenBases.add(at);
      else if (at) this.unprovenBaseAnswers.set(at, [...(this.unprovenBaseAnswers.get(at) ?? []), e]);
    for (const id of e.credentials ?? [])
      this.operationCredentials.set(
        operationKey(e),
        new Set([...(this.operationCredentials.get(operationKey(e)) ?? []), id]),
      );
    if (served && e.credentials?.length) {
      this.controls.add(controlKey(e));
      this.controls.add(operationKey(e));
    }
  }

  exchange(seq: number | undefined): Exchange | undefined {
    return seq === undefined ? undefined : this.bySeq.get(seq);
  }

  /**
   * Served; or, vary one thing, accepted where a made-up one was not: the operation refused a request
   * without the configured credential (401/403) and answered one with it with another refusal (a 400).
   */
  credentialProven(id: string): boolean {
    if (this.servedCredentials.has(id)) return true;
    return [...(this.passedAuth.get(id) ?? [])].some((op) => this.refusedWithout.has(op));
  }

  /**
   * Vary one value: the target never served the credential as configured, and served a near variant of it (another
   * letter case, cut short, extended): the configured value is off by a character, not the target's comparison.
   */
  nearVariantServed(id: string): Exchange | undefined {
    return this.credentialProven(id) || this.opts.embedded ? undefined : this.servedNear.get(id);
  }

  baseProven(base: string): boolean {
    return this.provenBases.has(base);
  }

  /** When a served credential was refused everywhere from one moment on (harness/setup/flip.ts). */
  flip(id: string): Flip | undefined {
    if (this.opts.embedded) return undefined;
    if (!this.flips.has(id)) this.flips.set(id, flipOf(this.carried.get(id) ?? []));
    return this.flips.get(id);
  }

  /** A refusal check whose operation was never served: it folds under that operation's own failure. */
  private unserved(e: Exchange): SetupSuspicion {
    const op = OPERATIONS[e.operation as OperationKey];
    const name = op ? `operation ${op.number} (${op.name})` : `${e.request.method} ${controlKey(e)}`;
    return { kind: 'control', key: `${name}, never served in this run`, unserved: true };
  }

  /** Every configured credential that flipped from served to refused during the run. */
  flipped(): Array<{ id: CredentialId; flip: Flip }> {
    return [...this.carried.keys()].flatMap((id) => {
      const flip = this.flip(id);
      return flip ? [{ id: id as CredentialId, flip }] : [];
    });
  }

  /** The credential this refusal met after it flipped, if any. */
  flippedCredential(e: Exchange): CredentialId | undefined {
    return (e.credentials ?? []).find((id) => {
      const flip = this.flip(id);
      return flip !== undefined && afterFlip(e, flip);
    }) as CredentialId | undefined;
  }

  /** Why this answer may come from the setup rather than the target, or undefined when it cannot. */
  suspicion(e: Exchange): SetupSuspicion | undefined {
    const status = e.response?.status;
    if (status === undefined || this.opts.embedded) return undefined;
    const at = [e.base, e.declaredPath].find((x) => x && !this.baseProven(x));
    if (at) return { kind: 'base', key: at as BaseUrlKey };
    // Served earlier, refused from one moment on everywhere: the credential changed, not the test data.
    const flipped = this.flippedCredential(e);
    if (flipped) return { kind: 'expired', key: flipped, flip: this.flip(flipped)! };
    // What the target serves contradicts the configured value the request carries (its lists name another FI).
    const contradicted = this.institutions.contradicted(e);
    if (contradicted) return { kind: 'contradicted', ...contradicted };
    const near = (e.nearVariants ?? []).find((c) => this.nearVariantServed(c));
    if (near) return { kind: 'credential', key: near as CredentialId, nearVariant: this.nearVariantServed(near) };
    // The error names the configured callingAppId, which no served request carried: not the token beside it.
    if (this.apps.suspect(e)) return { kind: 'testData', key: nv.CALLING_APP_KEY };
    // A 403 (known, not allowed) whose error names a configured value the request carried: that value, not the token.
    const members = status === 403 ? this.namedData(e).unproven : [];
    if (members.length) return nv.dataSuspicion(members);
    if (status === 401 || status === 403) {
      const id = (e.credentials ?? []).find((c) => !this.credentialProven(c));
      if (id) return { kind: 'credential', key: id as CredentialId, nearVariant: this.nearVariantServed(id) };
    }
    const changed = this.firstStoppedServing(); // the target changed: the same answer is no evidence
    if (nv.sameAnswerAsChanged(e, changed, changed && this.servedBefore(changed)?.seq)) return undefined;
    // A 405 is about the method, a 401 about the credentials (proven here): never about the data the request carries.
    if (status >= 400 && status < 500 && status !== 429 && status !== 405 && status !== 401) {
      // A configured phone number no control disproved before a write could move it: the refusal stands.
      const unproven = this.unprovenRelies(e).filter((k) => !this.phones.standsOn(k));
      // The target's error names the request's form and none of the values: the refusal is the target's.
      if (unproven.length && !this.ownWords(e, unproven)) {
        // Its own value quoted (a customer id) names the key; else the members the error names (a group's, a
        // customer's), or none where the run proved them.
        const members = unproven.some((k) => !isGroup(k) && quotesValue(e, k)) ? undefined : this.namedData(e);
        if (members?.unproven.length) return nv.dataSuspicion(members.unproven);
        if (members?.proven.length) return undefined;
        const named = unproven.find((k) => errorNamesValue(e, k));
        return { kind: 'testData', key: named ?? unproven[0]!, candidates: named ? [named] : unproven };
      }
    }
    return undefined;
  }

  /**
   * The refusal is the target's by its own words (error-names.ts): its error names the request's form or a member no
   * configured value stands for, on this request or on another of the operation that got the very same error (one
   * cause: a paymentOption refused whether the request carried it or the target took its default).
   */
  private ownWords(e: Exchange, keys: readonly string[]): boolean {
    if (ownWords(e, keys) !== undefined) return true;
    if (keys.some((k) => errorNamesValue(e, k))) return false;
    return this.sameErrors.named(e, keys);
  }
  private readonly sameErrors = new nv.SameErrors(() => this.bySeq.values(), operationKey);

  /** The members behind the request's unproven keys that its error names, those the run proved apart. */
  namedData(e: Exchange): { unproven: Member[]; proven: Member[] } {
    return nv.namedMembers(e, this.unprovenRelies(e), (m, x) => this.memberProven(m, x));
  }

  /** A member the run proved: a served request relied on it, or (an institutionId) the target's own lists show it. */
  private memberProven(m: Member, e: Exchange): boolean {
    if (this.servedData.has(m.key)) return true;
    return m.key.endsWith('.institutionId') && m.values(e).some((v) => this.institutions.lists(v));
  }

  dataProven = (key: string): boolean => this.servedData.has(key); // a request relying on it was served

  /** The configured test data this request relies on that no request served. */
  unprovenRelies(e: Exchange): string[] {
    return (e.relies ?? []).filter((k) => !this.servedData.has(k));
  }

  /** A refusal judged as the target's although it rests on test data no request proved (error-names.ts). */
  formRefusal(e: Exchange): boolean {
    const unproven = this.unprovenRelies(e);
    return (
      unproven.length > 0 && (this.ownWords(e, unproven) || this.provenNamed(e) !== undefined) && !this.suspicion(e)
    );
  }

  /** Why a refusal whose error names only values the run proved is the target's (its failure's note), or undefined. */
  provenNamed(e: Exchange): string | undefined {
    const { unproven, proven } = this.namedData(e);
    return unproven.length ? undefined : nv.provenWords(proven);
  }

  /**
   * A refusal judged as the target's although it rests on a configured phone number no request proved: no control
   * disproved it before a write of the customer could have moved it (phone-controls.ts). Its failure stands, naming
   * the number it rests on.
   */
  phoneStands(e: Exchange): string | undefined {
    if (this.suspicion(e) || this.formRefusal(e)) return undefined;
    return this.unprovenRelies(e).find((k) => this.phones.standsOn(k));
  }

  /**
   * A passed refusal check has its evidence: its operation was served (2xx) with a configured
   * credential, and for a refusal answered 404/405 (no such resource or method) at that very path.
   */
  refusalHasControl(e: Exchange): boolean {
    const status = e.response?.status;
    if (status === 404 || status === 405 || e.operation === 'raw') return this.controls.has(controlKey(e));
    return this.controls.has(operationKey(e));
  }

  /**
   * Why a passed refusal has no control: the base URL served nothing, or the credential the
   * operation was sent with was never served, or else the operation was never served with one.
   */
  missingControl(e: Exchange): SetupSuspicion {
    if (this.opts.embedded) return this.unserved(e);
    if (e.base && !this.baseProven(e.base)) return { kind: 'base', key: e.base as BaseUrlKey };
    const sent = this.operationCredentials.get(operationKey(e));
    // The credential it was (or would have been) sent with flipped during the run: that is the cause.
    const flipped = this.flipped().find(
      ({ id }) => sent?.has(id) || (!sent && this.carried.get(id)?.some((x) => x.base === e.base)),
    );
    if (flipped) return { kind: 'expired', key: flipped.id, flip: flipped.flip };
    const id = [...(sent ?? [])].find((c) => !this.credentialProven(c));
    if (id) return { kind: 'control', key: CREDENTIAL_SOURCES[id as CredentialId] };
    // Its tests could not send it, because of the setup: what kept them is what to check.
    // A value a served request relied on is proven: what kept those tests is the target's change, not the setup.
    const blocked = new Set(
      [...(this.blockedOperations.get(OPERATIONS[e.operation as OperationKey]?.number ?? 0) ?? [])].filter(
        (k) => !this.servedData.has(k),
      ),
    );
    for (const k of this.dataBlocking(operationKey(e))) blocked.add(k);
    if (blocked.size) return { kind: 'control', key: finestKeys([...blocked]).join(' or '), blocked: true };
    // The base URL and the credentials were proven: the operation itself was never served, which its own
    // tests report as the target's failure. The refusal folds under it; nothing of the setup is to blame.
    if (e.base && this.baseProven(e.base) && this.credentialsProvenAt(e)) return this.unserved(e);
    return { kind: 'control', key: `${e.base ?? 'baseUrl'} and the credentials of this operation` };
  }

  /** The test data its requests that could be served were refused for, no request having proven it (cached). */
  private dataBlocking(op: string): string[] {
    if (!this.blocking) {
      this.blocking = new Map();
      for (const x of this.bySeq.values()) {
        if (!x.credentials?.length || !x.relies?.length) continue;
        const s = this.suspicion(x);
        if (s?.kind === 'testData')
          this.blocking.set(operationKey(x), [...(this.blocking.get(operationKey(x)) ?? []), s.key]);
      }
    }
    return [...new Set(this.blocking.get(op) ?? [])];
  }
  private blocking?: Map<string, string[]>;

  /**
   * The operation was sent with configured credentials, all proven; or never (its tests could not get that far, e.g.
   * nothing to change), and every configured credential sent to its base URL is proven.
   */
  private credentialsProvenAt(e: Exchange): boolean {
    const sent = this.operationCredentials.get(operationKey(e));
    if (sent) return true;
    const atBase = [...this.carried].filter(([, xs]) => xs.some((x) => x.base === e.base)).map(([id]) => id);
    return atBase.length > 0 && atBase.every((id) => this.credentialProven(id));
  }

  /**
   * The 404 `e` to a request the target served earlier in the run: the very same method and URL (query included; not a
   * DELETE, and nothing at that URL deleted since), so every configured value in it (a customer id, a path) was proven
   * before the target stopped finding it. That served request, else undefined.
   */
  servedBefore(e: Exchange): Exchange | undefined {
    return this.opts.embedded ? undefined : nv.servedEarlier(this.bySeq.values(), e);
  }

  /** The first read (GET) of the run answered 404 where the very same read was served before (servedBefore). */
  firstStoppedServing(): Exchange | undefined {
    if (this.stopped === undefined) {
      // Reads, and updates of a customer's contact data: no operation of the interface removes a customer (session 41).
      const again = (x: Exchange) => x.request.method === 'GET' || x.operation === 'updateContactInfo';
      const reads = [...this.bySeq.values()].filter((x) => again(x) && x.operation !== 'raw');
      this.stopped = reads.sort((a, b) => a.seq - b.seq).find((x) => this.servedBefore(x)) ?? null;
    }
    return this.stopped ?? undefined;
  }
  private stopped?: Exchange | null;

  /** Every credential refused on every request that carried it, with those requests. */
  refusedEverywhere(): Array<{ id: CredentialId; exchanges: Exchange[]; nearVariant?: Exchange }> {
    if (this.opts.embedded) return [];
    return [...this.refusedCredentials]
      .filter(([id, xs]) => !this.credentialProven(id) && !xs.every((x) => this.apps.suspect(x)))
      .map(([id, exchanges]) => ({ id: id as CredentialId, exchanges, nearVariant: this.nearVariantServed(id) }));
  }

  /** Every base URL at which nothing was answered other than 404, with those answers. */
  unprovenBases(): Array<{ key: BaseUrlKey; exchanges: Exchange[] }> {
    if (this.opts.embedded) return [];
    return [...this.unprovenBaseAnswers]
      .filter(([b]) => !this.baseProven(b))
      .map(([key, exchanges]) => ({ key: key as BaseUrlKey, exchanges }));
  }
}

export type SetupSuspicion =
  | { kind: 'base'; key: BaseUrlKey }
  | { kind: 'credential'; key: CredentialId; nearVariant?: Exchange }
  | { kind: 'expired'; key: CredentialId; flip: Flip }
  | { kind: 'testData'; key: string; candidates?: string[] }
  | ({ kind: 'contradicted' } & Contradiction)
  | { kind: 'control'; key: string; blocked?: boolean; unserved?: boolean };

/** The checks whose pass rests on the target refusing a request. */
export const REFUSAL_CHECKS: ReadonlySet<string> = new Set(['not_served']);

/** The values of its path a 404 may quote (a customer id, whatever the customer is addressed by). */
const pathValues = (e: Exchange): string[] => (e.operation === 'updateContactInfo' ? ['customerId'] : []);

function operationKey(e: Exchange): string {
  return `${e.request.method} operation ${e.operation}`;
}

function controlKey(e: Exchange): string {
  let path = e.request.url;
  try {
    path = new URL(e.request.url).pathname;
  } catch {
    // keep the URL as recorded
  }
  return `${e.request.method} ${path}`;
}
