import { requirement } from '../../../requirements';
import type { TargetConfig } from '../../config';
import { secretValues } from '../../config';
import { Redactor } from '../../redact';
import type { Observed } from '../capture';
import type { Seen } from '../../rules/exchange';
import { type Plan, planCapture, seenOf } from '../judge';
import { mapEntry, type Mapped } from '../operation-map';
import { captureSecrets } from '../secrets';
import { entryText, HarFile, harEntry } from './har-file';
import { startRecorder, type Recorder } from './proxy';

/**
 * A recording session: the proxy, the HAR it writes (every secret redacted: the configured ones and
 * every credential the traffic carries), and the rules judged as the traffic goes, each broken rule
 * printed once, as it happens (graded by the catalog; the full verdict comes from --traffic).
 */
export interface RecordingSession {
  recorder: Recorder;
  /** Exchanges recorded so far. */
  count(): number;
  /** Stop: wait for the exchanges in flight, write the complete HAR. */
  stop(): Promise<number>;
}

export async function startRecording(
  config: TargetConfig,
  o: { host: string; port: number; out: string; version: string; print(line: string): void; strict?: boolean },
): Promise<RecordingSession> {
  const observed: Observed[] = [];
  const bases = { baseUrl: config.baseUrl, authBaseUrl: config.authBaseUrl, transfersBaseUrl: config.transfersBaseUrl };
  const har = new HarWriting(observed, secretValues(config), o.out, {
    name: 'dbsi-conformance recorder',
    version: o.version,
  });
  const live = new LiveJudging(() => har.redactor(), o);
  const recorder = await startRecorder(config, {
    host: o.host,
    port: o.port,
    onExchange(x) {
      observed.push(x);
      const m = mapEntry(x, bases, config.paths);
      if (!('ignored' in m)) live.add(x, m);
      try {
        har.save();
      } catch (e) {
        const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
        o.print(`(cannot write ${o.out}: ${why}; the recording goes on)`);
      }
    },
    onRefused: (line) => o.print(`  ${har.redactor().text(line)}`),
  });
  har.save();
  return {
    recorder,
    count: () => observed.length,
    async stop() {
      await recorder.close();
      live.flush();
      har.save();
      return observed.length;
    },
  };
}

/** What an exchange holds in text, for the question whether a secret found later appears in it. */
const rawText = (x: Observed) =>
  [
    x.url,
    ...Object.values(x.requestHeaders),
    ...Object.values(x.responseHeaders),
    x.requestBody ?? '',
    x.responseBody,
  ].join('\n');

/**
 * The HAR as it is now: every exchange that ended is on disk as soon as it ended, in a complete, valid HAR 1.2 file
 * (HarFile), so that no signal, kill or crash loses an exchange that ended. Each exchange is redacted, serialized and
 * written once (the whole file again only where a secret found later appears in an earlier exchange), so a long
 * capture costs no more per exchange than a short one.
 */
class HarWriting {
  /** The credentials the capture showed so far (captureSecrets), in the order found: each exchange is read once. */
  private readonly captured = new Set<string>();
  private scanned = 0;
  /**
   * The entries written so far, redacted and serialized (entryText), and the secrets they were redacted with: a
   * credential seen later is redacted in the earlier entries too (those holding it are redacted again).
   */
  private readonly written: string[] = [];
  private writtenWith: string[] = [];
  private writer: Redactor | undefined;
  private file: HarFile | undefined;
  private readonly labels = new Map<string, string>();

  constructor(
    private readonly observed: Observed[],
    private readonly configured: string[],
    private readonly out: string,
    private readonly creator: { name: string; version: string },
  ) {}

  secretsNow(): string[] {
    for (const x of this.observed.slice(this.scanned)) for (const v of captureSecrets([x])) this.captured.add(v);
    this.scanned = this.observed.length;
    return [...this.configured, ...this.captured];
  }

  redactor(): Redactor {
    return new Redactor(this.secretsNow());
  }

  save(): void {
    const { observed, written, labels } = this;
    const secrets = this.secretsNow();
    let changed = !this.file;
    if (secrets.length > this.writtenWith.length || !this.writer) {
      const r = new Redactor(secrets);
      this.writer = r;
      const added = new Redactor(secrets.filter((v) => !this.writtenWith.includes(v)));
      written.forEach((_, i) => {
        const raw = rawText(observed[i]!);
        if (added.text(raw) === raw) return;
        written[i] = entryText(harEntry(observed[i]!, r, labels));
        changed = true;
      });
      this.writtenWith = secrets;
    }
    for (const x of observed.slice(written.length)) written.push(entryText(harEntry(x, this.writer, labels)));
    this.file ??= new HarFile(this.out, this.creator);
    // An entry written before changed (a credential found later), or none yet: the whole file; else the new ones.
    if (changed) this.file.rewrite(written);
    else this.file.append(written);
  }
}

/**
 * The new exchanges' own rules, and the state rules over the whole sequence so far; in batches (a burst of exchanges
 * is judged once, a tenth of a second after it), so the proxy is not held up. Each broken rule is printed once.
 */
class LiveJudging {
  private readonly seen: Seen[] = [];
  private fresh: Array<{ x: Observed; m: Mapped }> = [];
  private judging: NodeJS.Timeout | undefined;
  private readonly printed = new Set<string>();

  constructor(
    private readonly redactor: () => Redactor,
    private readonly o: { print(line: string): void; strict?: boolean },
  ) {}

  add(x: Observed, m: Mapped): void {
    this.fresh.push({ x, m });
    this.judging ??= setTimeout(() => this.judgeSafely(), 100);
  }

  /** Judges what is waiting now. */
  flush(): void {
    if (!this.judging) return;
    clearTimeout(this.judging);
    this.judgeSafely();
  }

  private judgeSafely(): void {
    try {
      this.judgeLive();
    } catch (e) {
      this.o.print(`(live judging failed: ${(e as Error).message}; the recording goes on)`);
    }
  }

  private judgeLive(): void {
    this.judging = undefined;
    const r = this.redactor();
    // The recorder sees every header the client sent: a request without Authorization had none.
    const added = new Set(seenOf(this.fresh, r, () => true));
    this.fresh = [];
    this.seen.push(...added);
    const { plans } = planCapture(this.seen, (x) => added.has(x));
    for (const [index, plan] of plans) for (const p of plan) this.printBroken(r, index, p);
  }

  private printBroken(r: Redactor, index: number, p: Plan[number]): void {
    if (p.verdict.outcome !== 'failed') return;
    const grade = requirement(p.requirement).grade;
    if (grade === 'INFO' && !this.o.strict) return;
    const key = `${index}|${p.requirement}|${p.verdict.description}`;
    if (this.printed.has(key)) return;
    this.printed.add(key);
    const ex = p.verdict.res?.exchange;
    const by = ex ? ` ${ex.request.method} ${ex.request.url} → ` + `${ex.response?.status ?? 'no answer'}` : '';
    this.o.print(
      r.text(
        `${grade === 'MUST' ? '✗' : '!'} ${grade} ${p.requirement} broken by ` +
          `#${index}${by}: ` +
          `${p.verdict.description}; received ${p.verdict.received ?? ''}`,
      ),
    );
  }
}
