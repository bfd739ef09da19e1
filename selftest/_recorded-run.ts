import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TargetConfig } from '../harness/config';
import type { Area } from '../harness/model';
import { readHar } from '../harness/traffic/har';
import { startRecording, type RecordingSession } from '../harness/traffic/recorder/session';
import { judgeHar, type HarJudgement } from '../harness/traffic/run';
import { runAreas, type AreaRun } from './_reference';

declare module 'vitest' {
  interface TaskMeta {
    /** The reasons no capture shows a fault (notShownInTraffic), for the JSON reporter. */
    notShownInTraffic?: string[];
  }
}

export interface RecordedRun {
  /** The active run, made through the recorder. */
  active: AreaRun;
  har: string;
  /** The upstream configuration (the reference target's), also written to configFile. */
  config: TargetConfig;
  configFile: string;
  /** What the recorder printed while it recorded. */
  printed: string[];
  dir: string;
}

/**
 * The suite's own active run against a fresh reference target (with the given faults), made through
 * the recorder: the recorder forwards to the target, the cases are pointed at the recorder.
 */
export async function recordActiveRun(o: {
  areas: Area[];
  faults?: string[];
  strict?: boolean;
  /** One case at a time (a client that awaits each answer), instead of all at once. */
  sequential?: boolean;
}): Promise<RecordedRun> {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-recorded-'));
  const har = join(dir, 'run.har');
  const printed: string[] = [];
  let session: RecordingSession | undefined;
  let upstream: TargetConfig | undefined;
  try {
    const active = await runAreas({
      areas: o.areas,
      faults: o.faults,
      strict: o.strict,
      sequential: o.sequential,
      // Generous: on a loaded machine a slow answer must not turn into "no answer" in the capture.
      http: { timeoutMs: 30_000 },
      configure: async (cfg) => {
        upstream = cfg;
        session = await startRecording(cfg, {
          host: '127.0.0.1',
          port: 0,
          out: har,
          version: 'selftest',
          print: (l) => printed.push(l),
          strict: o.strict,
        });
        return { ...cfg, ...session.recorder.urls };
      },
    });
    await session!.stop();
    session = undefined;
    const configFile = join(dir, 'target.json');
    // As its operator would write it: ownTarget marks the embedded run's own configuration, never a file's.
    const { ownTarget: _own, ...written } = upstream!;
    writeFileSync(configFile, JSON.stringify(written));
    return { active, har, config: upstream!, configFile, printed, dir };
  } finally {
    await session?.stop();
  }
}

/** Judge a HAR in-process, as --traffic does (no reports written). */
export function judgeFile(file: string, config: TargetConfig | undefined, strict = false): Promise<HarJudgement> {
  return judgeHar(readHar(file), config, { file, strict, specUrl: 'spec.md' });
}

/** Requirement ids whose checks failed the judgement (MUST, or any grade under strict). */
export function brokenRequirements(j: HarJudgement, strict = false): Set<string> {
  return new Set(
    j.cases.flatMap((c) =>
      c.checks.filter((k) => k.outcome === 'failed' && (k.grade === 'MUST' || strict)).map((k) => k.requirement),
    ),
  );
}

/**
 * Why no capture can show the fault, derived from the rules: every check of the active run that failed
 * the fault's rule is judged once more as a capture of the same exchanges shows them
 * (harness/rules/capture-view.ts). Where one of them fails there too, a capture shows the fault:
 * undefined. Else each failure with the reason: what the active run knew beyond the exchanges (whose
 * credentials a refusal was about), or that a driver stated it from the configuration, not a rule.
 */
export function notShownInTraffic(
  active: AreaRun,
  fault: { breaks: string[]; strict?: boolean },
): string[] | undefined {
  const failed = active.cases.flatMap((c) =>
    c.checks.filter(
      (k) => k.outcome === 'failed' && fault.breaks.includes(k.requirement) && (k.grade === 'MUST' || fault.strict),
    ),
  );
  if (failed.length === 0 || failed.some((k) => k.capture?.fails)) return undefined;
  const why = (k: (typeof failed)[number]) =>
    k.capture?.why ?? 'stated by a driver from what the configuration says, not by a rule a capture reaches';
  return [...new Set(failed.map((k) => `${k.requirement} (${k.check}): ${why(k)}`))];
}

/**
 * Where no capture can show the fault (notShownInTraffic): the reasons go to the test's annotation and its meta
 * (for the JSON reporter), and true is returned, so that the test asks for no catch.
 */
export async function exemptIfNotShown(
  active: AreaRun,
  fault: { breaks: string[]; strict?: boolean },
  ctx: { annotate(message: string, type: string): Promise<unknown>; task: { meta: { notShownInTraffic?: string[] } } },
): Promise<boolean> {
  const notShown = notShownInTraffic(active, fault);
  if (!notShown) return false;
  ctx.task.meta.notShownInTraffic = notShown;
  await ctx.annotate(`no capture shows it: ${notShown.join('; ')}`, 'not shown in traffic');
  return true;
}

/**
 * Rules a fault breaks besides its own in a capture, where a capture cannot tell which rule an
 * accepted phone update breaks (the active suite tells them apart by what it set up):
 * - a target that accepts any oldPhoneNumber also accepts the previous number after a 2xx update,
 *   which looks like a new number not stored (or, after a change of country code, a new number and
 *   code not stored);
 * - a target that clears the number on an update without phoneNumber then accepts the cleared
 *   number as oldPhoneNumber, which looks like a mismatch accepted; cleared again after "" was set back (the
 *   explorer's sequences and clean-ups, suites/explore/contact-*.ts, do both more than once), "" accepted once more
 *   looks like the update that replaced it not stored.
 */
export const TRAFFIC_COLLATERAL: Record<string, string[]> = {
  'op10-accepts-mismatched-old-phone': [
    'OP10-RULE1-PHONE-STORED',
    'OP10-RULE3-PHONE-STORED',
    'OP10-RULE1-COUNTRY-CODE-STORED',
  ],
  'op10-unsupplied-phone-cleared': ['OP10-RULE2-OLD-PHONE-MATCH', 'OP10-RULE1-PHONE-STORED'],
  // The same, once a change succeeded (issue 32's reproduction).
  'op10-mismatch-accepted-after-a-change': [
    'OP10-RULE1-PHONE-STORED',
    'OP10-RULE3-PHONE-STORED',
    'OP10-RULE1-COUNTRY-CODE-STORED',
  ],
};
