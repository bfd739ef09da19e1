import type { ExchangeLine } from './judge';

/** What the summary says about a judged capture (conformance-summary.json "traffic"). */
export interface TrafficSummary {
  file: string;
  entries: number;
  /** Entries mapped to a documented operation. */
  judged: number;
  /** Entries not judged, by reason (other hosts, non-API paths, undocumented methods, not HAR entries). */
  ignored: Record<string, number>;
  /** How the base URLs were found: "configuration", or what was inferred from the spec's distinctive paths. */
  baseUrls: string[];
  /** Per documented operation: exchanges seen, and requirements proved and broken through them. */
  coverage: Array<{
    operation: string;
    exchanges: number;
    judged: number;
    proved: string[];
    broken: string[];
    warned: string[];
  }>;
  /** One line per exchange of an operation, in capture order. */
  exchanges: ExchangeLine[];
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/**
 * One exchange as a line: "#12 PUT /…/institution-user-disclosures → 204: proved OP6-REQUEST; broke
 * OP6-STATUS-204".
 */
export function exchangeLineText(l: ExchangeLine): string {
  const parts = [
    l.proved.length ? `proved ${l.proved.join(', ')}` : '',
    l.broke.length ? `BROKE ${l.broke.join(', ')}` : '',
    l.warned.length ? `warning ${l.warned.join(', ')}` : '',
    ...l.notes,
  ].filter(Boolean);
  let path = l.url;
  try {
    const u = new URL(l.url);
    path = u.pathname + u.search;
  } catch {
    /* keep it */
  }
  return (
    `#${l.index} ${l.method} ${path} → ` +
    `${l.status === 0 ? 'no answer' : l.status}: ` +
    `${parts.join('; ') || 'nothing judged'}`
  );
}

export function trafficSection(t: TrafficSummary): string[] {
  const out = ['', '## Recorded traffic', ''];
  out.push(
    `Judged from the capture \`${cell(t.file)}\`: ${t.entries} entries, ${t.judged} of them ` +
      `exchanges of a documented operation. Nothing was sent to the target.`,
    '',
  );
  const ignored = Object.entries(t.ignored).filter(([, n]) => n > 0);
  if (ignored.length) out.push(`Ignored: ${ignored.map(([why, n]) => `${n} ${why}`).join(', ')}.`, '');
  out.push('Base URLs:', '', ...t.baseUrls.map((b) => `- ${cell(b)}`), '');
  out.push(
    'A requirement **not observed** was never exercised by the traffic: it is not ' +
      'evidence of conformance, only of what this capture did not show.',
    '',
  );
  out.push(
    '### Coverage per operation',
    '',
    '| operation | exchanges | judged | proved | ' + 'broken | warnings |',
    '|---|---|---|---|---|---|',
  );
  for (const c of t.coverage)
    out.push(
      `| ${cell(c.operation)} | ${c.exchanges} | ${c.judged} | ` +
        `${c.proved.join(', ')} | ${c.broken.join(', ')} | ${c.warned.join(', ')} |`,
    );
  out.push('', '### Exchanges', '', '```');
  for (const l of t.exchanges) out.push(exchangeLineText(l));
  out.push('```');
  return out;
}
