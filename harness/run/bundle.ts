import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';

/** One file of the evidence bundle. */
export interface BundleEntry {
  /** Name inside the archive (no directories). */
  name: string;
  data: Buffer;
}

export interface ManifestFile {
  name: string;
  bytes: number;
  sha256: string;
}

export interface Manifest {
  bundle: 'dbsi-conformance evidence';
  createdAt: string;
  suiteVersion: string;
  verdict: string;
  exitCode: number;
  files: ManifestFile[];
}

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A found secret, named by its position in the configured list and the form it took; never the value. */
export interface SecretHit {
  file: string;
  secret: number;
  form: string;
}

export class BundleRefused extends Error {
  override name = 'BundleRefused';
  constructor(public hits: SecretHit[]) {
    super(`evidence bundle refused: a configured secret appears in ${hits.map((h) => `${h.file} (secret #${h.secret + 1} of the configuration's secrets, as ${h.form})`).join(', ')}. Nothing was packed; the files named contain a secret and must not be shared.`);
  }
}

/**
 * The forms a secret can take in an artifact: as is, base64 and base64url (e.g. inside a Basic
 * header or an embedded data file), URL-encoded, JSON-escaped.
 */
export function secretForms(secret: string): Array<{ form: string; value: string }> {
  const b = Buffer.from(secret);
  const forms = [
    { form: 'plain text', value: secret },
    { form: 'base64', value: b.toString('base64').replace(/=+$/, '') },
    { form: 'base64url', value: b.toString('base64url') },
    { form: 'URL-encoded', value: encodeURIComponent(secret) },
    { form: 'JSON-escaped', value: JSON.stringify(secret).slice(1, -1) },
  ];
  return forms.filter((f, i) => f.value.length >= 4 && forms.findIndex((g) => g.value === f.value) === i);
}

/**
 * The texts to search in a file: the file itself, and every base64 run it embeds decoded (the
 * single-file HTML report carries its data as base64 strings, where a secret would not show
 * as such; its three alignments are covered by decoding the runs whole).
 */
export function searchableTexts(data: Buffer): string[] {
  const text = data.toString('utf8');
  const out = [text];
  for (const m of text.matchAll(/[A-Za-z0-9+/]{24,}={0,2}/g)) {
    const decoded = Buffer.from(m[0], 'base64').toString('utf8');
    if (decoded.length) out.push(decoded);
  }
  return out;
}

/** Every place a configured secret appears in the given files, in any of its forms. */
export function scanForSecrets(entries: BundleEntry[], secrets: string[]): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const e of entries) {
    const texts = searchableTexts(e.data);
    secrets.forEach((s, i) => {
      for (const f of secretForms(s)) {
        if (texts.some((t) => t.includes(f.value))) {
          hits.push({ file: e.name, secret: i, form: f.form });
          break;
        }
      }
    });
  }
  return hits;
}

/** A POSIX ustar archive of regular files (mode 0644) at the archive's top level. */
export function tar(entries: BundleEntry[], mtime = new Date()): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    if (name.length > 100 || e.name.includes('/')) throw new Error(`tar: unsupported file name ${e.name}`);
    const h = Buffer.alloc(512);
    name.copy(h, 0);
    const octal = (v: number, len: number) => v.toString(8).padStart(len - 1, '0') + '\0';
    h.write(octal(0o644, 8), 100, 'ascii');
    h.write(octal(0, 8), 108, 'ascii');
    h.write(octal(0, 8), 116, 'ascii');
    h.write(octal(e.data.length, 12), 124, 'ascii');
    h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
    h.write('        ', 148, 'ascii');
    h.write('0', 156, 'ascii');
    h.write('ustar\0', 257, 'ascii');
    h.write('00', 263, 'ascii');
    let sum = 0;
    for (const byte of h) sum += byte;
    h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii');
    blocks.push(h, e.data, Buffer.alloc((512 - (e.data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** The manifest and a `sha256sum -c` compatible checksum list of the files. */
export function manifestFor(entries: BundleEntry[], facts: Omit<Manifest, 'bundle' | 'files'>): { manifest: Manifest; sums: string } {
  const files = entries.map((e) => ({ name: e.name, bytes: e.data.length, sha256: sha256(e.data) }));
  return { manifest: { bundle: 'dbsi-conformance evidence', ...facts, files }, sums: files.map((f) => `${f.sha256}  ${f.name}\n`).join('') };
}

/**
 * Pack the evidence bundle: the given files, MANIFEST.json and SHA256SUMS, in one tar.gz. Every
 * file (the manifest included) is scanned for the configured secrets first; when one appears, the
 * bundle is refused (BundleRefused) and nothing is written.
 */
export function writeBundle(target: string, files: string[], secrets: string[], facts: Omit<Manifest, 'bundle' | 'files'>): Manifest {
  const entries: BundleEntry[] = files.map((f) => ({ name: basename(f), data: readFileSync(f) }));
  const { manifest, sums } = manifestFor(entries, facts);
  const all = [...entries, { name: 'MANIFEST.json', data: Buffer.from(JSON.stringify(manifest, null, 2) + '\n') }, { name: 'SHA256SUMS', data: Buffer.from(sums) }];
  const hits = scanForSecrets(all, secrets);
  if (hits.length) throw new BundleRefused(hits);
  writeFileSync(target, gzipSync(tar(all, new Date(facts.createdAt))));
  return manifest;
}
