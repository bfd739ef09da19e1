import type { Exchange } from '../model';
import { parseJson } from '../json-depth';

/** An exchange as a person reads it: request, answer, timing, retries, and the curl line. Already redacted. */
export function renderExchange(ex: Exchange): string {
  const lines: string[] = [];
  lines.push(`${ex.request.method} ${ex.request.url}`);
  for (const [k, v] of Object.entries(ex.request.headers)) lines.push(`${k}: ${v}`);
  if (ex.request.body !== undefined) lines.push('', pretty(ex.request.body));
  lines.push('', '---');
  if (ex.response) {
    const waited = ex.waitedMs ? `; waited ${ex.waitedMs} ms in the client before it was sent` : '';
    lines.push(
      `HTTP ${ex.response.status}   (${ex.durationMs} ms, ${ex.response.bytes} ` +
        `bytes${ex.response.truncated ? ', cut off at the size limit' : ''}${waited})`,
    );
    for (const [k, v] of Object.entries(ex.response.headers)) lines.push(`${k}: ${v}`);
    if (ex.response.body) lines.push('', pretty(ex.response.body));
  } else if (ex.error) lines.push(`no answer: ${ex.error.kind}: ${ex.error.message} (${ex.durationMs} ms)`);
  if (ex.retries.length) lines.push('', 'retries:', ...ex.retries.map((r) => `  - ${r}`));
  lines.push('', 'reproduce:', ex.curl);
  return lines.join('\n');
}

function pretty(body: string): string {
  try {
    return JSON.stringify(parseJson(body), null, 2);
  } catch {
    return body;
  }
}
