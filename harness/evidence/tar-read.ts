import { gunzipSync } from 'node:zlib';
import type { BundleEntry } from './bundle';

export class NotABundle extends Error {
  override name = 'NotABundle';
}

/** At most this many entries are read from an archive: an evidence bundle holds about ten. */
const MAX_ENTRIES = 10_000;

/**
 * The regular files of a ustar .tar.gz (the evidence bundle, harness/evidence/bundle.ts), in archive order.
 * A bundle's files sit in one top folder, named after it: they are read by their names within it. Anything else
 * (not gzip, a bad header checksum, a truncated file, another directory, a link) is refused.
 */
export function untarGz(data: Buffer): BundleEntry[] {
  let buf: Buffer;
  try {
    buf = gunzipSync(data);
  } catch {
    throw new NotABundle('not a gzip file');
  }
  const out: BundleEntry[] = [];
  let off = 0;
  let folder: string | undefined;
  for (let n = 0; n < MAX_ENTRIES && off + 512 <= buf.length; n++) {
    const h = buf.subarray(off, off + 512);
    if (h.every((b) => b === 0)) return out;
    const name = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const field = (from: number, to: number) => h.subarray(from, to).toString('ascii').replace(/\0.*$/s, '').trim();
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    if (!/^[0-7]+$/.test(field(148, 156)) || sum !== parseInt(field(148, 156), 8))
      throw new NotABundle(`bad tar header checksum at byte ${off}`);
    const size = parseInt(field(124, 136), 8);
    const type = String.fromCharCode(h[156]!);
    if (!Number.isSafeInteger(size) || off + 512 + size > buf.length) throw new NotABundle(`${name}: truncated`);
    // The bundle's one top folder (bundle.ts): its directory entry first, then its files, read by their own names.
    if (type === '5' && n === 0 && size === 0 && /^[^/]+\/$/.test(name)) {
      folder = name;
      off += 512;
      continue;
    }
    if (type !== '0' && type !== '\0') throw new NotABundle(`${name}: not a regular file (tar type "${type}")`);
    if (folder && !name.startsWith(folder)) throw new NotABundle(`${name}: outside the bundle's folder ${folder}`);
    const own = folder ? name.slice(folder.length) : name;
    out.push({ name: own, data: Buffer.from(buf.subarray(off + 512, off + 512 + size)) });
    off += 512 + Math.ceil(size / 512) * 512;
  }
  if (off + 512 > buf.length) throw new NotABundle('truncated: no end-of-archive marker');
  throw new NotABundle(`more than ${MAX_ENTRIES} entries`);
}
