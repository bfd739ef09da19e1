import type { Faker } from '@faker-js/faker';
import { seededFaker } from '../data-builders/faker';
import type { TargetConfig } from './config';
import type { CheckVerdict } from './checks/verdict';
import { TransportError, type DbsiClient, type HttpResult, type SendOptions } from './http/client';
import { cleanupDeadlineMs, cleanupRequestDeadlineMs, sendUntilAnswered } from './http/cleanup-retry';
import type { Area, CaseReport, CheckResult, Exchange, Leftover } from './model';
import type { OperationKey } from './operations';
import { judgeExchange, judgeLog } from './rules/judge';
import { captureView, type Judged } from './rules/capture-view';
import { windowOf } from './rules/window';
import { RUN_LOG } from './log/run-log';
import type { Known, Seen } from './rules/exchange';
import type { RunState } from './run-state';
import type { RunSettings } from './run-settings';
import { CheckFailure, endsTest, graded } from './verdict/grade';
import { CouldNotTestError, NotApplicableError } from './verdict/outcomes';
import { caseIdOf } from './verdict/report';

export { specLink, type RunSettings } from './run-settings';
export { CheckFailure, formatFailure } from './verdict/grade';
export { CouldNotTestError, NotApplicableError } from './verdict/outcomes';
export { reportWithoutRun, runCase } from './case/run-case';

/** Where a case's evidence goes while it runs: Allure in a vitest run, nothing in the self-tests. */
export interface EvidenceSink {
  step<T>(name: string, body: () => Promise<T>): Promise<T>;
  exchange(ex: Exchange): Promise<void>;
  parameter(name: string, value: string): Promise<void>;
}

export const NO_EVIDENCE: EvidenceSink = {
  step: (_name, body) => body(),
  exchange: async () => undefined,
  parameter: async () => undefined,
};

export interface CaseDef {
  /** Reads as behaviour: "answers a 2xx with the institutionDisclosures envelope". Stable. */
  title: string;
  /** The catalog ids this case proves; every check it runs names one of them. */
  requirements: string[];
  run(t: CaseContext): Promise<void>;
}

export interface Feature {
  area: Area;
  /** The operation the feature is about (Allure feature label, spec section). */
  operation: OperationKey;
  cases: CaseDef[];
}

export function feature(area: Area, operation: OperationKey, cases: CaseDef[]): Feature {
  return { area, operation, cases };
}

export function caseId(f: Feature, c: CaseDef): string {
  return caseIdOf(f.area, f.operation, c.title);
}

function hashSeed(seed: number, id: string): number {
  let h = (seed >>> 0) ^ 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** The fixture every case receives: sends requests, verifies checks, records evidence. */
export class CaseContext {
  readonly faker: Faker;
  readonly exchanges: Exchange[] = [];
  /** This case's entries of the run's log, in clear (in memory only), in the order answered: what the folds read. */
  readonly logged: Seen[] = [];
  readonly checks: CheckResult[] = [];
  readonly parameters: Record<string, string> = {};
  /** The titles of the cases whose exchanges this case judged (cite). */
  readonly citedFrom: string[] = [];
  private readonly cleanups: Array<{ name: string; fn: () => Promise<unknown> }> = [];
  readonly cleanupProblems: string[] = [];
  /** What this case's clean-ups could not put back, with the values to restore by hand. */
  readonly leftovers: Leftover[] = [];
  /** Leftovers of earlier cases this case put back. */
  readonly resolvedLeftovers: Array<{ key: string; at: string }> = [];
  /** Epoch ms after which no clean-up request of this case is tried (again) (see harness/http/cleanup-retry.ts). */
  private cleanupDeadline = Infinity;

  constructor(
    readonly settings: RunSettings,
    readonly client: DbsiClient,
    readonly feature: Feature,
    readonly def: CaseDef,
    readonly sink: EvidenceSink = NO_EVIDENCE,
    /** Aborted when the run is interrupted: the case's requests stop; its clean-ups still run. */
    readonly signal?: AbortSignal,
  ) {
    this.faker = seededFaker(hashSeed(settings.seed, caseId(feature, def)));
  }

  get config(): TargetConfig {
    return this.settings.config;
  }

  /**
   * Send one request; the exchange is recorded and attached (redacted) to the current step. During
   * the clean-ups, a request is sent again until it is answered or the clean-up deadline passes
   * (harness/http/cleanup-retry.ts); every attempt is recorded.
   */
  async send(o: SendOptions): Promise<HttpResult> {
    if (!this.cleaningUp) return this.sendOnce(o, this.signal);
    const timings = this.client.timings;
    const until = Date.now() + cleanupRequestDeadlineMs(this.config.http.timeoutMs, timings.cleanupRequestFloorMs);
    return sendUntilAnswered(
      ({ signal, n }) =>
        this.sendOnce(
          { ...o, cleanup: true, label: n ? `${o.label ?? o.operation} (clean-up retry ${n})` : o.label },
          signal,
        ),
      {
        deadline: () => this.cleanupDeadlineAt(),
        until,
        paced: () => this.client.pacer.pacedTo !== undefined || this.client.pacer.shedding,
        backoffMs: timings.cleanupBackoffMs,
      },
    );
  }

  /** The clean-ups' deadline, brought forward when the target stopped answering. */
  cleanupDeadlineAt(): number {
    return Math.min(this.cleanupDeadline, this.client.breaker.cleanupDeadline());
  }

  private async sendOnce(o: SendOptions, signal: AbortSignal | undefined): Promise<HttpResult> {
    try {
      const res = await this.client.send(this.priority ? { priority: this.priority, ...o } : o, {}, signal);
      this.exchanges.push(res.exchange);
      if (res.logged) this.logged.push({ ...res.logged, keepsAuthorization: true });
      await this.sink.exchange(res.exchange);
      return res;
    } catch (e) {
      if (e instanceof TransportError && e.exchange) {
        this.exchanges.push(e.exchange);
        await this.sink.exchange(e.exchange);
      }
      throw e;
    }
  }

  /**
   * While this case holds a lock other cases wait for (a record, a customer), its requests go first
   * when every connection slot is busy: a run is as long as its longest chain of dependent requests,
   * and the cases that hold such locks are that chain.
   */
  priority = 0;

  /** The run's state the drivers share (harness/run-state.ts): one object per run, never a module registry. */
  get run(): RunState {
    return this.client.run;
  }

  /** A named step of a multi-request scenario (create, change, list, delete). */
  step<T>(name: string, body: () => Promise<T>): Promise<T> {
    return this.sink.step(name, body);
  }

  /**
   * Exchanges another case sent that this case's verdict is judged on (a scenario several cases
   * share, e.g. suites/disclosures/_record-lifecycle.ts): shown in this case's evidence under a step
   * naming the case that sent them, and counted once, in that case's report.
   */
  async cite(sentBy: string, exchanges: Exchange[]): Promise<void> {
    if (exchanges.length === 0) return;
    if (!this.citedFrom.includes(sentBy)) this.citedFrom.push(sentBy);
    for (const e of exchanges) this.judged(e);
    await this.sink.step(`${CITED_STEP} "${sentBy}"`, async () => {
      for (const e of exchanges) await this.sink.exchange(e);
    });
  }

  /** A value this case used, shown as an Allure parameter. Never pass a secret. */
  async parameter(name: string, value: string): Promise<void> {
    // Test data may equal a secret (a password that is also the user name): redacted like the exchanges.
    const shown = this.client.redactor.text(value);
    this.parameters[name] = shown;
    await this.sink.parameter(name, shown);
  }

  /**
   * Record a check's verdict against a requirement. A failed MUST check ends the case; a failed
   * SHOULD check is a warning and an unlisted value (INFO) an observation, both failures under --strict.
   * Returns whether the check passed.
   */
  verify(requirementId: string, verdict: CheckVerdict): boolean {
    this.checkDeclared(requirementId);
    const v = this.noted(verdict);
    const result = graded(requirementId, v, this.client.redactor);
    if (result.outcome === 'failed' && this.judging) result.capture = captureView(this.judging, requirementId);
    if (result.outcome === 'failed' && v.res?.truncated) {
      // The body was cut off at http.maxBodyBytes: what the check missed may be in the rest, so
      // this is no verdict on the target.
      const limit = this.config.http.maxBodyBytes;
      throw new TransportError(
        'too-large',
        `the answer is larger than http.maxBodyBytes (${limit} bytes) and was cut off there, so ` +
          `${v.check} could not judge it; raise http.maxBodyBytes to test it`,
        v.res.exchange,
      );
    }
    this.checks.push(result);
    if (result.outcome !== 'failed') return true;
    if (endsTest(result, this.settings.strict)) throw new CheckFailure(result);
    return false;
  }

  /** What a failure recorded within `withSetupNote` also says (after what was received). */
  private setupNote?: string;

  /** The exchange or log `judge` / `judgeLog` is holding to the rules (for the capture view of a failure). */
  private judging?: Judged;

  private judgingNow<T>(judged: Judged, body: () => T): T {
    this.judging = judged;
    try {
      return body();
    } finally {
      this.judging = undefined;
    }
  }

  /**
   * Run `body` (judge, judgeLog) with `note` on every failure it records: where a failure may also come
   * from a configured value, its text says so and names the key (the rule itself cannot know the setup).
   */
  withSetupNote<T>(note: string | undefined, body: () => T): T {
    const outer = this.setupNote;
    this.setupNote = note;
    try {
      return body();
    } finally {
      this.setupNote = outer;
    }
  }

  private noted(v: CheckVerdict): CheckVerdict {
    if (v.outcome !== 'failed' || !this.setupNote) return v;
    return { ...v, received: `${v.received ?? ''}; setup: ${this.setupNote}` };
  }

  /**
   * Hold an answer this case drove to the catalog's rules for `requirements` (harness/rules/): the same
   * rules that judge a recorded capture. Where the exchange gives no verdict on one of them, the case
   * cannot pass on it: not applicable when another rule failed on the exchange first (that failure is
   * reported by its own test), else could not test.
   */
  judge(res: HttpResult, ...requirements: string[]): void {
    const logged = res.logged;
    if (!logged) throw new Error(`suite bug: case "${this.def.title}" judges an exchange the client did not log`);
    for (const r of requirements) this.checkDeclared(r);
    const seen: Seen = { ...logged, keepsAuthorization: true };
    const { judged, failedElsewhere } = this.judgingNow({ log: [seen], single: true }, () =>
      judgeExchange(seen, this, requirements),
    );
    const missing = requirements.filter((r) => !judged.has(r));
    if (missing.length === 0) return;
    const what = `${missing.join(', ')} (answer ${res.status})`;
    if (failedElsewhere.length)
      this.notApplicable(
        `the exchange gives no verdict on ${what}: ` + `${failedElsewhere.join(', ')} failed on it first`,
        res,
      );
    this.couldNotTest(`the exchange gives no verdict on ${what}: the answer does not show the rule in play`);
  }

  /**
   * Hold the exchanges this case drove (writes and the reads that show their effect) to the catalog's state
   * rules for `requirements` (harness/rules/sequence-rules.ts), the same rules that judge a capture's sequence.
   * `results` only say which exchanges the case drove: the log judged is the run's log over the window they span
   * (harness/rules/window.ts), other cases' exchanges meanwhile included, and the verdicts kept are those whose
   * evidence is one of the case's own exchanges, else those the rules gave over the window (rules/judge.ts). A rule
   * with no verdict gives no pass: not applicable when another rule failed on the case's exchanges first, else could
   * not test, with what the rules said of the window.
   */
  judgeLog(results: HttpResult[], ...requirements: string[]): void {
    this.judgeLogKnowing({}, results, ...requirements);
  }

  /**
   * judgeLog, where the run knows the state before the log begins from its configuration (`known`: the
   * number on record of a customer no accepted update in the log shows), which a capture never does.
   */
  judgeLogKnowing(known: Known, results: HttpResult[], ...requirements: string[]): void {
    for (const r of requirements) this.checkDeclared(r);
    const own = results.map((res) => {
      if (!res.logged) throw new Error(`suite bug: case "${this.def.title}" judges an exchange the client did not log`);
      return { ...res.logged, keepsAuthorization: true };
    });
    const { log, drove } = windowOf(this.run.get(RUN_LOG).entries(), own);
    // Shown with the case's evidence: the other tests' writes served meanwhile (the records they wrote are theirs).
    for (const s of log)
      if (!drove.has(s.x.index) && s.x.method !== 'GET' && s.x.status >= 200 && s.x.status < 300)
        this.judged(s.res.exchange);
    const { judged, failedElsewhere, notes } = this.judgingNow({ log, single: false, known, drove }, () =>
      judgeLog(log, this, requirements, known, drove),
    );
    const missing = requirements.filter((r) => !judged.has(r));
    if (missing.length === 0) return;
    const why = notes.length ? `: ${[...new Set(notes)].join('; ')}` : ': no read in the log shows the state';
    if (failedElsewhere.length)
      this.notApplicable(
        `the log gives no verdict on ${missing.join(', ')}: ` + `${failedElsewhere.join(', ')} failed on it first`,
      );
    this.couldNotTest(`the log gives no verdict on ${missing.join(', ')}${why}`);
  }

  private checkDeclared(requirementId: string): void {
    if (!this.def.requirements.includes(requirementId))
      throw new Error(`suite bug: case "${this.def.title}" checks ` + `${requirementId} but does not declare it`);
  }

  /**
   * The target does not expose what this case needs. `res`: the answer that says so, when another
   * case sent it (a shared list): judged here too, so the run can tell a setup problem behind it.
   */
  notApplicable(reason: string, res?: HttpResult): never {
    throw new NotApplicableError(reason, res?.exchange);
  }

  /** Exchanges this case's verdict rests on that it did not send (cite, notApplicable). */
  readonly judgedSeqs: number[] = [];
  /** Set by the explorer's test: what it reached (CaseReport.explored). */
  explored?: CaseReport['explored'];

  judged(e: Exchange): void {
    if (!this.exchanges.includes(e) && !this.judgedSeqs.includes(e.seq)) this.judgedSeqs.push(e.seq);
  }

  /**
   * The state this case needs could not be established: could not test, with the reason. `setupKey`
   * names the configuration key or variable to check when the operator's setup may be the cause
   * (gathered in the run's diagnosis block).
   */
  couldNotTest(reason: string, setupKey?: string): never {
    throw new CouldNotTestError(reason, setupKey);
  }

  /** A clean-up could not put this back: listed at the end of the run with the values to restore by hand. */
  leftBehind(l: Omit<Leftover, 'at'>): void {
    this.leftovers.push({ ...l, at: new Date().toISOString() });
  }

  /** This case put back what an earlier case had left (same key). */
  putBack(key: string): void {
    this.resolvedLeftovers.push({ key, at: new Date().toISOString() });
  }

  /** Undo something this case did on the target; runs after the case, also when it failed. */
  cleanup(name: string, fn: () => Promise<unknown>): void {
    this.cleanups.push({ name, fn });
  }

  private cleaningUp = false;

  async runCleanups(): Promise<void> {
    this.cleaningUp = true;
    const floorMs = this.client.timings.cleanupCaseFloorMs;
    this.cleanupDeadline = Date.now() + cleanupDeadlineMs(this.config.http.timeoutMs, floorMs);
    for (const c of this.cleanups.reverse()) {
      const before = this.leftovers.length;
      try {
        await this.sink.step(`clean-up: ${c.name}`, c.fn);
      } catch (e) {
        const message = (e as Error).message;
        this.cleanupProblems.push(`${c.name}: ${message}`);
        // A clean-up that failed without saying what it left: what it was to undo may be left.
        if (this.leftovers.length === before)
          this.leftBehind({
            key: `${caseId(this.feature, this.def)}|${c.name}`,
            what: `${c.name} (test "${this.def.title}")`,
            restore: 'see the clean-up exchanges of this ' + 'test in the report',
            why: message,
          });
      }
    }
  }
}

/** The name of the evidence step that holds exchanges another case sent (CaseContext.cite); the bench does not count
 * them again. */
export const CITED_STEP = 'exchanges judged here, sent by the test';
