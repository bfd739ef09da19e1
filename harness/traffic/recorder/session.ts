import { requirement } from '../../../requirements';
import type { TargetConfig } from '../../config';
import { secretValues } from '../../config';
import { Redactor } from '../../redact';
import type { Observed } from '../capture';
import type { Seen } from '../../rules/exchange';
import { planCapture, seenOf } from '../judge';
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
  const printed = new Set<string>();
  const configured = secretValues(config);
  const creator = { name: 'dbsi-conformance recorder', version: o.version };

  /** The credentials the capture showed so far (captureSecrets), in the order found: each exchange is read once. */
  const captured = new Set<string>();
  let scanned = 0;
  const secretsNow = (): string[] => {
    for (const x of observed.slice(scanned)) for (const v of captureSecrets([x])) captured.add(v);
    scanned = observed.length;
    return [...configured, ...captured];
  };
  const redactor = () => new Redactor(secretsNow());
  /**
   * The entries written so far, redacted and serialized (entryText), and the secrets they were redacted with: a
   * credential seen later is redacted in the earlier entries too (those holding it are redacted again).
   */
  const written: string[] = [];
  let writtenWith: string[] = [];
  let writer: Redactor | undefined;
  let file: HarFile | undefined;
  const labels = new Map<string, string>();
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
   * Write the HAR as it is now: every exchange that ended is on disk as soon as it ended, in a
   * complete, valid HAR 1.2 file (HarFile), so that no signal, kill or crash loses an exchange that
   * ended. Each exchange is redacted, serialized and written once (the whole file again only where a
   * secret found later appears in an earlier exchange), so a long capture costs no more per exchange than a
   * short one.
   */
  const save = () => {
    const secrets = secretsNow();
    let changed = !file;
    if (secrets.length > writtenWith.length || !writer) {
      writer = new Redactor(secrets);
      const r = writer;
      const added = new Redactor(secrets.filter((v) => !writtenWith.includes(v)));
      written.forEach((_, i) => {
        const raw = rawText(observed[i]!);
        if (added.text(raw) === raw) return;
        written[i] = entryText(harEntry(observed[i]!, r, labels));
        changed = true;
      });
      writtenWith = secrets;
    }
    for (const x of observed.slice(written.length)) written.push(entryText(harEntry(x, writer, labels)));
    file ??= new HarFile(o.out, creator);
    // An entry written before changed (a credential found later), or none yet: the whole file; else the new ones.
    if (changed) file.rewrite(written);
    else file.append(written);
  };

  const seen: Seen[] = [];
  let fresh: Array<{ x: Observed; m: Mapped }> = [];
  let judging: NodeJS.Timeout | undefined;
  /**
   * The new exchanges' own rules, and the state rules over the whole sequence so far; in batches (a
   * burst of exchanges is judged once, a tenth of a second after it), so the proxy is not held up.
   */
  function judgeLive(): void {
    judging = undefined;
    const r = redactor();
    // The recorder sees every header the client sent: a request without Authorization had none.
    const added = new Set(seenOf(fresh, r, () => true));
    fresh = [];
    seen.push(...added);
    const { plans } = planCapture(seen, (x) => added.has(x));
    for (const [index, plan] of plans) {
      for (const p of plan) {
        if (p.verdict.outcome !== 'failed') continue;
        const grade = requirement(p.requirement).grade;
        if (grade === 'INFO' && !o.strict) continue;
        const key = `${index}|${p.requirement}|${p.verdict.description}`;
        if (printed.has(key)) continue;
        printed.add(key);
        const ex = p.verdict.res?.exchange;
        o.print(
          r.text(
            `${grade === 'MUST' ? '✗' : '!'} ${grade} ${p.requirement} broken by ` +
              `#${index}${
                ex ? ` ${ex.request.method} ${ex.request.url} → ` + `${ex.response?.status ?? 'no answer'}` : ''
              }: ` +
              `${p.verdict.description}; received ${p.verdict.received ?? ''}`,
          ),
        );
      }
    }
  }

  const judgeSafely = () => {
    try {
      judgeLive();
    } catch (e) {
      o.print(`(live judging failed: ${(e as Error).message}; the recording goes on)`);
    }
  };

  const recorder = await startRecorder(config, {
    host: o.host,
    port: o.port,
    onExchange(x) {
      observed.push(x);
      const m = mapEntry(x, bases, config.paths);
      if (!('ignored' in m)) {
        fresh.push({ x, m });
        judging ??= setTimeout(judgeSafely, 100);
      }
      try {
        save();
      } catch (e) {
        const why = (e as NodeJS.ErrnoException).code ?? (e as Error).message;
        o.print(`(cannot write ${o.out}: ${why}; the recording goes on)`);
      }
    },
    onRefused: (line) => o.print(`  ${redactor().text(line)}`),
  });
  save();
  return {
    recorder,
    count: () => observed.length,
    async stop() {
      await recorder.close();
      if (judging) {
        clearTimeout(judging);
        judgeSafely();
      }
      save();
      return observed.length;
    },
  };
}
