import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';

/** Helpers of the evidence self-tests: read artifacts and look for the reference target's fake secrets. */

/** Every secret the default reference configuration carries, and the Basic header value. */
export function referenceSecrets(): Array<{ name: string; value: string }> {
  const c = REFERENCE_CREDENTIALS;
  const r = REFERENCE_TEST_DATA.revocation;
  return [
    { name: 'bearerToken', value: c.bearerToken },
    { name: 'transfersToken', value: c.transfersToken },
    { name: 'transfersForbiddenToken', value: c.transfersForbiddenToken },
    { name: 'revocationClientSecret', value: c.revocationClientSecret },
    { name: 'revocation password', value: r.password },
    { name: 'revocation refresh_token', value: r.refresh_token },
    {
      name: 'Basic header value base64(id:secret)',
      value: Buffer.from(`${c.revocationClientId}:${c.revocationClientSecret}`).toString('base64'),
    },
  ];
}

/** A secret and the encoded forms it could take in an artifact. */
export function needles(secret: { name: string; value: string }): Array<{ name: string; value: string }> {
  const b = Buffer.from(secret.value);
  return [
    { name: `${secret.name}`, value: secret.value },
    { name: `${secret.name} (base64)`, value: b.toString('base64').replace(/=+$/, '') },
    { name: `${secret.name} (base64url)`, value: b.toString('base64url') },
  ];
}

/** The file's text plus every base64 run in it decoded (the single-file HTML embeds its data so). */
export function texts(data: Buffer): string[] {
  const s = data.toString('utf8');
  return [s, ...[...s.matchAll(/[A-Za-z0-9+/]{16,}={0,2}/g)].map((m) => Buffer.from(m[0], 'base64').toString('utf8'))];
}

/** Which needles appear in the given named contents. */
export function findSecrets(contents: Array<{ name: string; data: Buffer }>): string[] {
  const found: string[] = [];
  const all = referenceSecrets().flatMap(needles);
  for (const c of contents) {
    const t = texts(c.data);
    for (const n of all) if (t.some((x) => x.includes(n.value))) found.push(`${n.name} in ${c.name}`);
  }
  return found;
}

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/** The files of a .tar.gz, read without the system tar (ustar regular files), by their names in its top folder. */
export function untarGz(file: string): Array<{ name: string; data: Buffer }> {
  return untarGzRaw(file)
    .filter((e) => !e.name.endsWith('/'))
    .map((e) => ({ ...e, name: e.name.replace(/^[^/]+\//, '') }));
}

/** Every entry of a .tar.gz as written, the top folder's directory entry ("name/") included. */
export function untarGzRaw(file: string): Array<{ name: string; data: Buffer }> {
  const buf = gunzipSync(readFileSync(file));
  const out: Array<{ name: string; data: Buffer }> = [];
  for (let off = 0; off + 512 <= buf.length; ) {
    const h = buf.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break;
    const name = h.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = parseInt(h.subarray(124, 136).toString('ascii').replace(/\0.*$/s, '').trim(), 8);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : h[i]!;
    if (sum !== parseInt(h.subarray(148, 156).toString('ascii'), 8))
      throw new Error(`bad tar header checksum for ${name}`);
    out.push({ name, data: Buffer.from(buf.subarray(off + 512, off + 512 + size)) });
    off += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

/** The JSON data files embedded in the single-file Allure report, by name. */
export function embeddedReportData(html: string): Map<string, string> {
  return new Map(
    [...html.matchAll(/d\("([^"]+)","([A-Za-z0-9+/=]*)"\)/g)].map((m) => [
      m[1]!,
      Buffer.from(m[2]!, 'base64').toString('utf8'),
    ]),
  );
}
