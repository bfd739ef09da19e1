import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { LocalFileError, readRegularFile, userCwd } from '../local-files';
import { verifyEntries } from './attestation';
import { KeyError, loadPublicKey } from './signing-key';
import { NotABundle, untarGz } from './tar-read';

/** The verify command's exit codes (docs/install-action-fleets-signing.md). */
export const VERIFY_EXIT = { VERIFIED: 0, NOT_VERIFIED: 1, USAGE: 2 } as const;

export const VERIFY_USAGE = `Usage: dbsi-conformance verify BUNDLE.tar.gz --key PUBLIC.pem
       npm run verify -- BUNDLE.tar.gz --key PUBLIC.pem

Checks an evidence bundle packed with --bundle --sign: the attestation's signature (DSSE, Ed25519)
with the public key, then every file of the bundle against the SHA-256 the attestation signed.
--key takes a PEM public key file (-----BEGIN PUBLIC KEY-----), or env:NAME for a variable holding it.

Exit codes: 0 verified, 1 not verified (each reason is printed, naming the file: changed, missing
or added after signing, a signature the key did not make, no attestation), 2 usage error (bad
arguments, a key or bundle that cannot be read).`;

/** An evidence bundle is a few megabytes at most (the HTML report is the largest file). */
const MAX_BUNDLE_BYTES = 512 * 1024 * 1024;

/** `dbsi-conformance verify BUNDLE --key PUB`: prints what it found and returns the exit code. */
export function verifyCommand(
  argv: string[],
  env: NodeJS.ProcessEnv,
  io: { out(line: string): void; err(line: string): void },
): number {
  let v;
  try {
    v = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { key: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } },
    });
  } catch (e) {
    io.err(`dbsi-conformance verify: ${(e as Error).message}\n\n${VERIFY_USAGE}`);
    return VERIFY_EXIT.USAGE;
  }
  if (v.values.help) {
    io.out(VERIFY_USAGE);
    return VERIFY_EXIT.VERIFIED;
  }
  const [bundle, ...more] = v.positionals;
  const wrong = !bundle
    ? 'give the bundle to verify'
    : more.length
      ? `one bundle at a time, not ${v.positionals.length}`
      : !v.values.key
        ? 'give the public key with --key PUBLIC.pem'
        : undefined;
  if (wrong) {
    io.err(`dbsi-conformance verify: ${wrong}\n\n${VERIFY_USAGE}`);
    return VERIFY_EXIT.USAGE;
  }
  const from = userCwd(env);
  let entries;
  let key;
  try {
    key = loadPublicKey(v.values.key!, env, from);
    entries = untarGz(readRegularFile(bundle!, 'the bundle', MAX_BUNDLE_BYTES, from));
  } catch (e) {
    if (!(e instanceof KeyError || e instanceof LocalFileError || e instanceof NotABundle)) throw e;
    const what = e instanceof NotABundle ? `${bundle} is not an evidence bundle (.tar.gz): ` : '';
    io.err(`dbsi-conformance verify: ${what}${e.message}`);
    return VERIFY_EXIT.USAGE;
  }
  const shown = resolve(from, bundle!);
  const result = verifyEntries(entries, key);
  if (result.problems.length) {
    io.out(`NOT VERIFIED: ${shown}`);
    for (const p of result.problems) io.out(`  - ${p}`);
    return VERIFY_EXIT.NOT_VERIFIED;
  }
  const p = result.statement!.predicate;
  io.out(`Verified: ${shown}`);
  io.out(`  signed by key ${result.keyid}; ${result.statement!.subject.length} files match their signed SHA-256`);
  io.out(`  predicate ${result.statement!.predicateType}:`);
  io.out(`  verdict: ${p?.headline ?? p?.verdict} (exit ${p?.exitCode}); target: ${p?.target?.name}`);
  io.out(`  spec sha256: ${p?.spec?.sha256}; suite version: ${p?.suiteVersion}; seed: ${p?.seed}`);
  return VERIFY_EXIT.VERIFIED;
}
