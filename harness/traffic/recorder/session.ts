import { requirement } from '../../../requirements';
import type { TargetConfig } from '../../config';
import { secretValues } from '../../config';
import { Redactor } from '../../redact';
import type { Observed } from '../capture';
import type { HarEntry } from '../har';
import type { Seen } from '../../rules/exchange';
import { planCapture, seenOf } from '../judge';
import { mapEntry, type Mapped } from '../operation-map';
import { captureSecrets } from '../secrets';
import { harEntry, writeHar } from './har-file';
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

  const redactor = () => new Redactor([...configured, ...captureSecrets(observed)]);
  /**
   * The redacted entries written so far, and the secrets they were redacted with: a credential seen
   * later is redacted in the earlier entries too (they are redacted again when the secrets change).
   */
  const written: HarEntry[] = [];
  let writtenWith = '';
  const labels = new Map<string, string>();
  /**
   * Write the HAR as it is now: every exchange that ended is on disk as soon as it ended, in a
   * complete, valid HAR 1.2 file (a temporary file renamed over it), so that no signal, kill or
   * crash loses an exchange that ended.
   */
  const save = () => {
    const secrets = [...configured, ...captureSecrets(observed)];
    const key = JSON.stringify(secrets);
    if (key !== writtenWith) {
      const r = new Redactor(secrets);
      written.splice(0, written.length, ...observed.map((x) => harEntry(x, r, labels)));
      writtenWith = key;
    } else if (written.length < observed.length) {
      const r = new Redactor(secrets);
      for (const x of observed.slice(written.length)) written.push(harEntry(x, r, labels));
    }
    writeHar(o.out, written, creator);
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
