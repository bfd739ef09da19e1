import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { jsonSyntaxError } from '../json-syntax';

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as browsers' devtools, proxies
 * (mitmproxy, Charles, Fiddler) and the suite's own recorder write it. Only the members the judge
 * reads are typed; everything else is carried along untouched.
 */
export interface HarHeader {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  /** Total elapsed time of the request in milliseconds (-1 or absent when unknown). */
  time?: number;
  request: {
    method: string;
    url: string;
    httpVersion?: string;
    headers?: HarHeader[];
    queryString?: Array<{ name: string; value: string }>;
    postData?: { mimeType?: string; text?: string; params?: Array<{ name: string; value?: string }> };
    headersSize?: number;
    bodySize?: number;
  };
  response?: {
    status: number;
    statusText?: string;
    httpVersion?: string;
    headers?: HarHeader[];
    content?: { size?: number; mimeType?: string; text?: string; encoding?: string };
    redirectURL?: string;
    headersSize?: number;
    bodySize?: number;
    /** Chrome: why an entry has status 0 (net::ERR_ABORTED, …). */
    _error?: string;
  };
  timings?: Record<string, number>;
  [extension: string]: unknown;
}

export interface HarLog {
  version?: string;
  creator?: { name?: string; version?: string };
  entries: HarEntry[];
}

/**
 * The largest capture the judge reads: a bigger file is refused at once, before it is read. Judging
 * holds about 30 bytes of memory per byte of capture (parsed bodies, redacted records, reports).
 */
export const MAX_HAR_BYTES = 32 * 1024 * 1024;

/** A file that cannot be judged: not there, too large, not JSON, not HAR. Exit code 2, one message. */
export class HarError extends Error {
  override name = 'HarError';
}

const mib = (n: number) => `${Math.round((n / 1024 / 1024) * 10) / 10} MiB`;

/**
 * Read a HAR file safely: its size is checked before a byte is read, it must parse as JSON and
 * carry log.entries as an array. Entries that lack a request method and URL are not HAR entries;
 * they are returned apart (counted as unreadable), never a reason to stop.
 */
export function readHar(file: string, maxBytes = MAX_HAR_BYTES): { log: HarLog; unreadable: number } {
  let size: number;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new HarError(`${file} is not a file`);
    size = st.size;
  } catch (e) {
    if (e instanceof HarError) throw e;
    throw new HarError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (size > maxBytes)
    throw new HarError(
      `${file} is ${mib(size)}, larger than the ${mib(maxBytes)} a capture may be: ` +
        `split it (e.g. one HAR per session) and judge each part`,
    );
  if (size === 0) throw new HarError(`${file} is empty: expected a HAR 1.2 file (JSON with log.entries)`);
  const buf = Buffer.alloc(size);
  const fd = openSync(file, 'r');
  try {
    let off = 0;
    while (off < size) {
      const n = readSync(fd, buf, off, size - off, off);
      if (n === 0) break;
      off += n;
    }
  } finally {
    closeSync(fd);
  }
  return parseHar(buf.toString('utf8').replace(/^\uFEFF/, ''), file);
}

/** Parse the text of a HAR file (see readHar). */
export function parseHar(text: string, file = 'the capture'): { log: HarLog; unreadable: number } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    // Located by line and column, never quoting the text: a capture holds credentials.
    const where = jsonSyntaxError(text)?.text ?? (e as Error).name;
    const expected = 'expected a HAR 1.2 file, as "Save all as HAR" in the browser\'s network panel writes it';
    throw new HarError(`${file} is not JSON (${where}): ${expected}`);
  }
  const log = (doc as { log?: unknown } | null)?.log as { entries?: unknown } | undefined;
  if (!log || typeof log !== 'object' || !Array.isArray(log.entries)) {
    throw new HarError(
      `${file} is JSON but not HAR: expected an object with log.entries (an array ` +
        `of request/response entries), as HAR 1.2 defines it`,
    );
  }
  const entries: HarEntry[] = [];
  let unreadable = 0;
  for (const e of log.entries as unknown[]) {
    const req = (e as HarEntry | null)?.request;
    if (req && typeof req.method === 'string' && typeof req.url === 'string') entries.push(e as HarEntry);
    else unreadable++;
  }
  return { log: { ...(log as HarLog), entries }, unreadable };
}
