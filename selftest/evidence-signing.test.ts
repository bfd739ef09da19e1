import { execFileSync, spawnSync } from 'node:child_process';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, test } from 'vitest';
import {
  ATTESTATION_ENTRY,
  keyIdOf,
  pae,
  PAYLOAD_TYPE,
  PREDICATE_TYPE,
  STATEMENT_TYPE,
  type ConformancePredicate,
  type Envelope,
  type Statement,
} from '../harness/evidence/attestation';
import { tar, writeBundle, type BundleEntry } from '../harness/evidence/bundle';
import { untarGz } from '../harness/evidence/tar-read';
import { verifyCommand, VERIFY_EXIT } from '../harness/evidence/verify';
import { runMain } from './_main';

/** A fresh Ed25519 key pair, in PEM files, in a folder of its own. */
function keyPair() {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-keys-'));
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writeFileSync(join(dir, 'private.pem'), pem, { mode: 0o600 });
  writeFileSync(join(dir, 'public.pem'), publicKey.export({ type: 'spki', format: 'pem' }).toString());
  return { dir, pem, privateKey, publicKey, priv: join(dir, 'private.pem'), pub: join(dir, 'public.pem') };
}

const predicate: ConformancePredicate = {
  verdict: 'conformant',
  exitCode: 0,
  target: {
    name: 'sandbox',
    embedded: false,
    baseUrl: 'https://a.example',
    authBaseUrl: 'https://a.example',
    transfersBaseUrl: 'https://a.example',
    faults: [],
  },
  spec: { file: 'spec/digital-banking-service-interface.md', sha256: 'ab'.repeat(32) },
  suiteVersion: '0.1.0',
  seed: 42,
  strict: false,
  startedAt: '2026-01-02T03:04:05.000Z',
};

/** A signed bundle of three report files, written to a fresh folder. */
function signedBundle(privateKey: KeyObject): string {
  const dir = mkdtempSync(join(tmpdir(), 'dbsi-signed-'));
  const files = { 'conformance-summary.md': '# summary\nconformant\n', 'junit.xml': '<testsuites/>\n', 'c.json': '{}' };
  for (const [n, t] of Object.entries(files)) writeFileSync(join(dir, n), t);
  const target = join(dir, 'bundle.tar.gz');
  writeBundle(
    target,
    Object.keys(files).map((n) => join(dir, n)),
    [],
    { createdAt: predicate.startedAt, suiteVersion: '0.1.0', verdict: 'conformant', exitCode: 0 },
    [],
    { signer: { key: privateKey, keyid: keyIdOf(privateKey) }, predicate },
  );
  return target;
}

/** The bundle's entries changed by `change`, packed again as another .tar.gz. */
function repacked(bundle: string, change: (entries: BundleEntry[]) => BundleEntry[]): string {
  const out = join(mkdtempSync(join(tmpdir(), 'dbsi-repacked-')), 'bundle.tar.gz');
  writeFileSync(out, gzipSync(tar(change(untarGz(readFileSync(bundle))))));
  return out;
}

function verifyCli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = verifyCommand(args, env, { out: (l) => out.push(l), err: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('DSSE pre-authentication encoding', () => {
  test("the DSSE spec's test vector (protocol.md): DSSEv1 29 http://example.com/HelloWorld 11 hello world", () => {
    expect(pae('http://example.com/HelloWorld', Buffer.from('hello world')).toString('utf8')).toBe(
      'DSSEv1 29 http://example.com/HelloWorld 11 hello world',
    );
  });
  test('lengths count bytes, not characters', () => {
    expect(pae('t', Buffer.from('é')).toString('utf8')).toBe('DSSEv1 1 t 2 é');
  });
});

describe('a bundle packed with a signing key', () => {
  const keys = keyPair();
  const bundle = signedBundle(keys.privateKey);

  test('holds an in-toto Statement v1 in a DSSE envelope, one subject per other file with its SHA-256', () => {
    const entries = untarGz(readFileSync(bundle));
    const envelope = JSON.parse(entries.find((e) => e.name === ATTESTATION_ENTRY)!.data.toString()) as Envelope;
    expect(envelope.payloadType).toBe(PAYLOAD_TYPE);
    expect(envelope.signatures).toEqual([{ keyid: keyIdOf(keys.publicKey), sig: expect.any(String) }]);
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString()) as Statement;
    expect(statement._type).toBe(STATEMENT_TYPE);
    expect(statement.predicateType).toBe(PREDICATE_TYPE);
    expect(statement.predicate).toEqual(predicate);
    expect(statement.subject.map((s) => s.name)).toEqual(
      entries.filter((e) => e.name !== ATTESTATION_ENTRY).map((e) => e.name),
    );
    expect(statement.subject.map((s) => s.name)).toEqual(expect.arrayContaining(['MANIFEST.json', 'SHA256SUMS']));
    const manifest = JSON.parse(entries.find((e) => e.name === 'MANIFEST.json')!.data.toString());
    for (const f of manifest.files)
      expect(statement.subject.find((s) => s.name === f.name)!.digest.sha256, f.name).toBe(f.sha256);
  });

  test('verifies with the public key (exit 0), saying the verdict, target, spec digest, version and seed', () => {
    const r = verifyCli([bundle, '--key', keys.pub]);
    expect(r.err).toBe('');
    expect(r.code).toBe(VERIFY_EXIT.VERIFIED);
    expect(r.out).toContain('Verified:');
    expect(r.out).toContain(`signed by key ${keyIdOf(keys.publicKey)}; 5 files match`);
    expect(r.out).toContain('seed: 42');
    expect(r.out).toContain(`spec sha256: ${'ab'.repeat(32)}`);
  });

  test('one byte of the summary changed after signing: not verified (exit 1), naming the file', () => {
    const changed = repacked(bundle, (es) =>
      es.map((e) => (e.name === 'conformance-summary.md' ? { ...e, data: Buffer.from('# summary\nconformanT\n') } : e)),
    );
    const r = verifyCli([changed, '--key', keys.pub]);
    expect(r.code).toBe(VERIFY_EXIT.NOT_VERIFIED);
    expect(r.out).toContain('NOT VERIFIED');
    expect(r.out).toMatch(/- conformance-summary\.md: changed after signing/);
    expect(r.out.split('\n').filter((l) => l.startsWith('  - '))).toHaveLength(1);
  });

  test('a file added, a file removed: each named', () => {
    const changed = repacked(bundle, (es) => [
      ...es.filter((e) => e.name !== 'junit.xml'),
      { name: 'extra.txt', data: Buffer.from('x') },
    ]);
    const r = verifyCli([changed, '--key', keys.pub]);
    expect(r.code).toBe(VERIFY_EXIT.NOT_VERIFIED);
    expect(r.out).toContain('junit.xml: signed, but missing from the bundle');
    expect(r.out).toContain('extra.txt: not signed (added after signing)');
  });

  test('the statement changed after signing, or another key: the signature fails (exit 1)', () => {
    const other = keyPair();
    const wrongKey = verifyCli([bundle, '--key', other.pub]);
    expect(wrongKey.code).toBe(VERIFY_EXIT.NOT_VERIFIED);
    expect(wrongKey.out).toContain(`${ATTESTATION_ENTRY}: no signature verifies with the given public key`);
    const forged = repacked(bundle, (es) =>
      es.map((e) => {
        if (e.name !== ATTESTATION_ENTRY) return e;
        const env = JSON.parse(e.data.toString()) as Envelope;
        const st = JSON.parse(Buffer.from(env.payload, 'base64').toString()) as Statement;
        st.predicate.verdict = 'conformant (edited)';
        return {
          ...e,
          data: Buffer.from(JSON.stringify({ ...env, payload: Buffer.from(JSON.stringify(st)).toString('base64') })),
        };
      }),
    );
    const r = verifyCli([forged, '--key', keys.pub]);
    expect(r.code).toBe(VERIFY_EXIT.NOT_VERIFIED);
    expect(r.out).toContain('no signature verifies');
  });

  test('an unsigned bundle is not verified; bad arguments and unusable keys exit 2 without the key text', () => {
    const unsigned = repacked(bundle, (es) => es.filter((e) => e.name !== ATTESTATION_ENTRY));
    expect(verifyCli([unsigned, '--key', keys.pub])).toMatchObject({
      code: 1,
      out: expect.stringContaining('missing'),
    });
    expect(verifyCli([bundle]).code).toBe(VERIFY_EXIT.USAGE);
    expect(verifyCli(['--key', keys.pub]).code).toBe(VERIFY_EXIT.USAGE);
    const priv = verifyCli([bundle, '--key', keys.priv]);
    expect(priv).toMatchObject({ code: 2, err: expect.stringContaining('holds a private key') });
    expect(priv.err).not.toContain(keys.pem.split('\n')[1]);
    expect(verifyCli([keys.pub, '--key', keys.pub])).toMatchObject({ code: 2, err: expect.stringContaining('gzip') });
    expect(verifyCli([bundle, '--key', 'env:PUB'], { PUB: readFileSync(keys.pub, 'utf8') }).code).toBe(0);
  });
});

/**
 * An implementation of DSSE the suite did not write: Python's securesystemslib (Debian: python3-securesystemslib).
 * Its dsse.Envelope (0.27 and later) verifies the envelope whole; Debian bookworm's 0.26 has no dsse module, so
 * there its Ed25519 key verifies the signature over the PAE the script builds from DSSE's protocol.md.
 */
const PYTHON_VERIFY = `
import base64, json, sys
from securesystemslib.signer import SSlibKey, Signature
env = json.load(open(sys.argv[1]))
pub = sys.argv[2]
key = SSlibKey(env["signatures"][0]["keyid"], "ed25519", "ed25519", {"public": pub})
try:
    from securesystemslib.dsse import Envelope
    Envelope.from_dict(env).verify([key], 1)
    print("verified by securesystemslib.dsse.Envelope")
except ImportError:
    body = base64.b64decode(env["payload"])
    t = env["payloadType"].encode()
    pae = b"DSSEv1 %d %s %d %s" % (len(t), t, len(body), body)
    sig = env["signatures"][0]
    key.verify_signature(Signature(sig["keyid"], base64.b64decode(sig["sig"]).hex()), pae)
    print("verified by securesystemslib.signer.SSlibKey (ed25519) over the DSSE PAE")
`;

function pythonWithSecuresystemslib(): string | undefined {
  for (const py of ['python3', '/usr/bin/python3']) {
    const r = spawnSync(py, ['-c', 'import securesystemslib'], { timeout: 20_000 });
    if (r.status === 0) return py;
  }
  return undefined;
}

describe('verified by an independent DSSE implementation', () => {
  let python: string | undefined;
  beforeAll(() => {
    python = pythonWithSecuresystemslib();
  });

  test('securesystemslib accepts the envelope, and refuses it with a changed payload', (ctx) => {
    if (!python) {
      ctx.skip('python3 with securesystemslib is not installed (apt-get install python3-securesystemslib)');
      return;
    }
    const keys = keyPair();
    const entries = untarGz(readFileSync(signedBundle(keys.privateKey)));
    const dir = mkdtempSync(join(tmpdir(), 'dbsi-dsse-'));
    const envelope = entries.find((e) => e.name === ATTESTATION_ENTRY)!.data;
    writeFileSync(join(dir, 'envelope.json'), envelope);
    writeFileSync(join(dir, 'verify.py'), PYTHON_VERIFY);
    const raw = keys.publicKey.export({ format: 'jwk' }).x!;
    const pubHex = Buffer.from(raw, 'base64url').toString('hex');
    const ok = execFileSync(python, [join(dir, 'verify.py'), join(dir, 'envelope.json'), pubHex], {
      timeout: 30_000,
    }).toString();
    expect(ok).toMatch(/^verified by securesystemslib/);
    const bad = JSON.parse(envelope.toString()) as Envelope;
    bad.payload = Buffer.from(Buffer.from(bad.payload, 'base64').toString().replace('sandbox', 'sandboX')).toString(
      'base64',
    );
    writeFileSync(join(dir, 'bad.json'), JSON.stringify(bad));
    const r = spawnSync(python, [join(dir, 'verify.py'), join(dir, 'bad.json'), pubHex], { timeout: 30_000 });
    expect(r.status).not.toBe(0);
  });
});

describe('a run with --bundle --sign', () => {
  test('signs the bundle it packs; the key is in no artifact; verify accepts it', async () => {
    const keys = keyPair();
    const run = await runMain(['--area', 'disclosures', '--quiet', '--bundle', '--sign', 'env:SIGNING_KEY'], {
      env: { SIGNING_KEY: keys.pem },
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const name = readdirSync(run.reports).find((f) => /^dbsi-evidence-.*\.tar\.gz$/.test(f))!;
    const entries = untarGz(readFileSync(join(run.reports, name)));
    expect(entries.map((e) => e.name)).toContain(ATTESTATION_ENTRY);
    const body = keys.pem.split('\n')[1]!;
    for (const e of entries) expect(e.data.toString('latin1'), e.name).not.toContain(body);
    expect(run.stdout).not.toContain(body);
    const r = verifyCli([join(run.reports, name), '--key', keys.pub]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/verdict: conformant.*\(exit 0\); target: /);
  });

  test('--sign without --bundle, or with a key that is not Ed25519, is a usage error (exit 2)', async () => {
    expect((await runMain(['--sign', 'k.pem'])).code).toBe(2);
    const dir = mkdtempSync(join(tmpdir(), 'dbsi-rsa-'));
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    writeFileSync(join(dir, 'rsa.pem'), rsa.export({ type: 'pkcs8', format: 'pem' }));
    const r = await runMain(['--bundle', '--sign', join(dir, 'rsa.pem')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not an Ed25519 key');
    const none = await runMain(['--bundle', '--sign', 'env:NOT_SET_ANYWHERE']);
    expect(none).toMatchObject({ code: 2, stderr: expect.stringContaining('NOT_SET_ANYWHERE is not set') });
  });
});
