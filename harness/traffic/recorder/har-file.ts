import { closeSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import type { Redactor } from '../../redact';
import type { Observed } from '../capture';
import type { HarEntry, HarLog } from '../har';

/**
 * A recorded exchange as a HAR 1.2 entry, every secret redacted (headers, bodies, URL). What the
 * judge needs of the credential goes in "_dbsiCredential": a label per distinct credential of the
 * session (c1, c2, …: not derived from the secret) and its shape.
 */
export function harEntry(x: Observed, redactor: Redactor, labels: Map<string, string> = new Map()): HarEntry {
  const c = x.credential;
  const credential = c && {
    label:
      c.label === undefined
        ? undefined
        : (labels.get(c.label) ?? labels.set(c.label, `c${labels.size + 1}`).get(c.label)),
    scheme: c.scheme,
    wellFormedBasic: c.wellFormedBasic,
  };
  const url = redactor.text(x.url);
  let queryString: Array<{ name: string; value: string }> = [];
  try {
    queryString = [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    /* not a URL */
  }
  const list = (h: Record<string, string>) =>
    Object.entries(redactor.headers(h)).map(([name, value]) => ({ name, value }));
  const reqType = Object.entries(x.requestHeaders).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
  const resType = x.responseHeaders['content-type'] ?? '';
  const body = redactor.body(x.responseBody) ?? '';
  return {
    startedDateTime: x.startedAt,
    time: x.durationMs,
    request: {
      method: x.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: list(x.requestHeaders),
      queryString,
      ...(x.requestBody !== undefined
        ? { postData: { mimeType: reqType, text: redactor.body(x.requestBody) ?? '' } }
        : {}),
      headersSize: -1,
      bodySize: x.requestBody === undefined ? 0 : Buffer.byteLength(x.requestBody),
    } as HarEntry['request'],
    response: {
      status: x.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: list(x.responseHeaders),
      content: { size: Buffer.byteLength(x.responseBody), mimeType: resType, text: body },
      redirectURL: x.responseHeaders.location ?? '',
      headersSize: -1,
      bodySize: x.status === 0 ? -1 : Buffer.byteLength(x.responseBody),
      ...(x.abortReason ? { _error: x.abortReason } : {}),
    } as HarEntry['response'],
    cache: {},
    timings: { send: 0, wait: x.durationMs, receive: 0 },
    ...(credential ? { _dbsiCredential: credential } : {}),
  };
}

/** An entry as it is written into the file: JSON at the depth of log.entries (so a file is written without
 * serializing again the entries it held before). */
export function entryText(entry: HarEntry): string {
  // JSON never holds a raw line break inside a string: every line break is the layout's, shifted three levels in.
  return '   ' + JSON.stringify(entry, null, 1).replace(/\n/g, '\n   ');
}

/** The text of a HAR 1.2 log of these entries before and after its entries, and the tail after a last entry. */
function harFrame(creator: { name: string; version: string }) {
  const log: HarLog & { pages: unknown[] } = { version: '1.2', creator, pages: [], entries: [] };
  const empty = JSON.stringify({ log }, null, 1);
  const at = empty.lastIndexOf('"entries": []');
  const after = empty.slice(at + '"entries": []'.length) + '\n';
  return { empty: empty + '\n', head: `${empty.slice(0, at)}"entries": [\n`, tail: `\n  ]${after}` };
}

/**
 * The HAR file of a recording, a complete, valid HAR 1.2 file after every write. `rewrite` writes it whole, to a
 * temporary file renamed over it (never half a file). `append` adds entries after the last one: the new entries and
 * the tail, written over the old tail in one write, so the file's earlier entries are not written again and a long
 * capture costs each exchange the same.
 */
export class HarFile {
  private bytes = 0;
  private count = 0;
  private readonly frame: ReturnType<typeof harFrame>;
  /** The bytes after the last entry (an append writes over them). */
  private readonly tailBytes: number;

  constructor(
    private readonly file: string,
    creator: { name: string; version: string },
  ) {
    this.frame = harFrame(creator);
    this.tailBytes = Buffer.byteLength(this.frame.tail);
  }

  /** How many entries the file holds. */
  get entries(): number {
    return this.count;
  }

  rewrite(entries: readonly string[]): void {
    const { empty, head, tail } = this.frame;
    const text = entries.length ? `${head}${entries.join(',\n')}${tail}` : empty;
    const tmp = `${this.file}.tmp-${process.pid}`;
    writeFileSync(tmp, text);
    renameSync(tmp, this.file);
    this.bytes = Buffer.byteLength(text);
    this.count = entries.length;
  }

  /** The entries of `all` after those the file holds (it holds at least one: else the whole file is written). */
  append(all: readonly string[]): void {
    const added = all.slice(this.count);
    if (this.count === 0) return this.rewrite(all);
    if (!added.length) return;
    const { tail } = this.frame;
    const data = Buffer.from(added.map((e) => `,\n${e}`).join('') + tail);
    const fd = openSync(this.file, 'r+');
    let n: number;
    try {
      n = writeSync(fd, data, 0, data.length, this.bytes - this.tailBytes);
    } finally {
      closeSync(fd);
    }
    // Not all of it written (the disk filled up): the whole file, which throws why.
    if (n !== data.length) return this.rewrite(all);
    this.bytes += data.length - this.tailBytes;
    this.count = all.length;
  }
}
