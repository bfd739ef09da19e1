import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describeForm, secretPattern } from '../secret-forms';
import { attestationEntry, type ConformancePredicate, type SigningKey } from './attestation';

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
  /** The target the run judged (its name and base URLs, as the summary's facts give them) and the run's seed. */
  target?: { name: string; baseUrl: string; authBaseUrl: string; transfersBaseUrl: string; embedded: boolean };
  seed?: number;
  files: ManifestFile[];
}

export const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A found secret, named by the variable or key it was configured under and the form it took; never the value. */
export interface SecretHit {
  file: string;
  secret: string;
  form: string;
}

/** A secret to look for, and the name a person set it under (DBSI_BEARER_TOKEN, "credentials.bearerToken"). */
export interface ScannedSecret {
  name: string;
  value: string;
}

export class BundleRefused extends Error {
  override name = 'BundleRefused';
  constructor(public hits: SecretHit[]) {
    const shown = hits.slice(0, 12).map((h) => `${h.file} (${h.secret}, as ${h.form})`);
    super(
      `evidence bundle refused: a configured secret appears in ` +
        `${shown.join(', ')}${hits.length > shown.length ? ` and ${hits.length - shown.length} more` : ''}. ` +
        `Nothing was packed; the files named contain a secret and must not be shared.`,
    );
  }
}

/**
 * The texts to search in a file: the file itself, and every base64 run it embeds, decoded (the
 * single-file HTML report carries its data as base64 strings, a Basic header its credentials; a
 * secret inside does not show as such at any of the three alignments, so the runs are decoded
 * whole). Only the encodings the suite itself writes are decoded; what they hold is then searched
 * in every text form (secretForms).
 */
export function searchableTexts(data: Buffer): string[] {
  const text = data.toString('utf8');
  const decoded: string[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9+/_-]{16,}={0,2}/g)) {
    const d = Buffer.from(m[0], 'base64').toString('utf8');
    if (d.length) decoded.push(d);
  }
  // One text for all the decoded runs: a secret never holds NUL (the configuration refuses it), so none spans two runs.
  return decoded.length ? [text, decoded.join('\0')] : [text];
}

/** Every place a configured secret appears in the given files, in any of its forms. */
export function scanForSecrets(entries: BundleEntry[], secrets: ReadonlyArray<string | ScannedSecret>): SecretHit[] {
  const hits: SecretHit[] = [];
  const named = secrets.map((s, i) =>
    typeof s === 'string' ? { name: `secret #${i + 1} of the configuration`, value: s } : s,
  );
  const patterns = named.map((s) => secretPattern(s.value));
  for (const e of entries) {
    const texts = searchableTexts(e.data);
    patterns.forEach((re, i) => {
      for (const t of texts) {
        re.lastIndex = 0;
        const m = re.exec(t);
        if (m) {
          hits.push({ file: e.name, secret: named[i]!.name, form: describeForm(m[0], named[i]!.value) });
          break;
        }
      }
    });
  }
  return hits;
}

/**
 * A POSIX ustar archive of regular files (mode 0644), at the archive's top level or, with `folder`, in that one
 * folder (a directory entry first): unpacked, a bundle makes one folder, not files among the reader's own.
 */
export function tar(entries: BundleEntry[], mtime = new Date(), folder?: string): Buffer {
  const blocks: Buffer[] = [];
  if (folder !== undefined && (folder === '' || folder.includes('/')))
    throw new Error(`tar: unsupported folder name ${folder}`);
  const items = [
    ...(folder ? [{ name: `${folder}/`, data: Buffer.alloc(0), dir: true }] : []),
    ...entries.map((e) => ({ ...e, dir: false })),
  ];
  for (const e of items) {
    if (e.name.includes('/') && !e.dir) throw new Error(`tar: unsupported file name ${e.name}`);
    const path = e.dir || !folder ? e.name : `${folder}/${e.name}`;
    const name = Buffer.from(path, 'utf8');
    if (name.length > 100) throw new Error(`tar: unsupported file name ${path}`);
    const h = Buffer.alloc(512);
    name.copy(h, 0);
    const octal = (v: number, len: number) => v.toString(8).padStart(len - 1, '0') + '\0';
    h.write(octal(e.dir ? 0o755 : 0o644, 8), 100, 'ascii');
    h.write(octal(0, 8), 108, 'ascii');
    h.write(octal(0, 8), 116, 'ascii');
    h.write(octal(e.data.length, 12), 124, 'ascii');
    h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
    h.write('        ', 148, 'ascii');
    h.write(e.dir ? '5' : '0', 156, 'ascii');
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
export function manifestFor(
  entries: BundleEntry[],
  facts: Omit<Manifest, 'bundle' | 'files'>,
): { manifest: Manifest; sums: string } {
  const files = entries.map((e) => ({ name: e.name, bytes: e.data.length, sha256: sha256(e.data) }));
  return {
    manifest: { bundle: 'dbsi-conformance evidence', ...facts, files },
    sums: files.map((f) => `${f.sha256}  ${f.name}\n`).join(''),
  };
}

/**
 * Pack the evidence bundle: the given files, MANIFEST.json and SHA256SUMS, in one tar.gz; with `sign`, also
 * the signed attestation of every one of them (attestation.ts). Every file (the manifest and the attestation
 * included) is scanned for the configured secrets first; when one appears, the bundle is refused
 * (BundleRefused) and nothing is written.
 */
export function writeBundle(
  target: string,
  files: string[],
  secrets: ReadonlyArray<string | ScannedSecret>,
  facts: Omit<Manifest, 'bundle' | 'files'>,
  extra: BundleEntry[] = [],
  sign?: { signer: SigningKey; predicate: ConformancePredicate },
): Manifest {
  const entries: BundleEntry[] = [...files.map((f) => ({ name: basename(f), data: readFileSync(f) })), ...extra];
  const { manifest, sums } = manifestFor(entries, facts);
  const all = [
    ...entries,
    { name: 'MANIFEST.json', data: Buffer.from(JSON.stringify(manifest, null, 2) + '\n') },
    { name: 'SHA256SUMS', data: Buffer.from(sums) },
  ];
  if (sign) all.push(attestationEntry(all, sign.predicate, sign.signer));
  const hits = scanForSecrets(all, secrets);
  if (hits.length) throw new BundleRefused(hits);
  writeFileSync(target, gzipSync(tar(all, new Date(facts.createdAt), basename(target).replace(/\.tar\.gz$/, ''))));
  return manifest;
}
