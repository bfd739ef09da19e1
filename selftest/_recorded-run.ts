import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TargetConfig } from '../harness/config';
import type { Area } from '../harness/model';
import { readHar } from '../harness/traffic/har';
import { startRecording, type RecordingSession } from '../harness/traffic/recorder/session';
import { judgeHar, type HarJudgement } from '../harness/traffic/run';
import { runAreas, type AreaRun } from './_reference';

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
    writeFileSync(configFile, JSON.stringify(upstream));
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
 * Faults whose rule a capture cannot show: the target refuses a request the spec says it must
 * serve (a refusal may be about the credentials, which a capture cannot tell, and a 404 may mean
 * "not found"), or the difference lies in a credential's validity. The active suite catches them.
 */
export const NOT_SHOWN_IN_TRAFFIC: Record<string, string> = {
  'op1-requires-version-less-path': 'a 404 at the documented path: may mean "not found"',
  'op2-requires-version-less-path': 'a 405 at the documented path: a refusal proves nothing about the rule',
  'op4-requires-other-query-name': 'a 400 refusal: may be about anything else the request carries',
  'op4-refuses-valid-token': 'a 403 refusal: a capture cannot tell whether the token was valid for this operation',
  'op5-requires-other-header-name': 'a 400 refusal: may be about anything else the request carries',
  'op6-collection-form-missing': 'a 405 refusal',
  'op7-collection-form-missing': 'a 405 refusal',
  'disc-accepts-any-bearer-token': 'an invalid token cannot be told from a valid one',
  'op9-invalid-token-403': 'an invalid token cannot be told from a valid one',
  'op9-forbidden-token-401': 'a token without authorization cannot be told from one with it',
  'op9-refuses-day-of-week': 'a 400 refusal: may be about anything else the request carries',
  'op10-unsupplied-phone-cleared': 'shows only as a refusal of the number on record, which may be about anything else',
  'op10-served-only-versioned': 'a 404 at the documented path: may mean the customer is not found',
  'op10-refuses-postal-address-alone': 'a 400 refusal: may be about anything else the request carries',
  'op10-refuses-all-three': 'a 400 refusal: may be about anything else the request carries',
  'op10-refuses-login-id': 'a 400 refusal: may be about anything else the request carries',
  'op10-country-code-change-not-stored':
    'judged as the phone number on record (OP10-RULE1-PHONE-STORED, its collateral): ' +
    'a capture does not tell a country-code change apart',
};
