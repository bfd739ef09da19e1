import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What an earlier run in the same reports folder left on the same target (session 41's safety hold-out, row H20). A
 * run removes the previous run's summary before it writes its own (harness/evidence/previous-outputs.ts), and a run
 * does not know what another one changed: an interrupted or cut-off run's leftovers would be gone from the folder,
 * and the next run would find the configured values refused with nothing to say why. Before the summary goes, its
 * leftovers (what a person must restore by hand; not the values set to the configured ones) are kept in
 * `earlier-leftovers.json`, with those the file already held for that target, and the run says so first thing.
 * The file stays until a person deletes it (they put the values back); a run never resolves it, as no run can tell.
 */
export const EARLIER_LEFTOVERS = 'earlier-leftovers.json';

interface Kept {
  what: string;
  now?: string;
  restore: string;
  key?: string;
  at?: string;
  baseUrl: string;
}

const json = (file: string): unknown => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
};

const obj = (v: unknown): Record<string, any> => (v && typeof v === 'object' ? (v as Record<string, any>) : {});

/** The leftovers the previous summary in `dir` lists for `baseUrl` (a target other than the embedded one). */
function fromSummary(dir: string, baseUrl: string): Kept[] {
  const summary = obj(json(join(dir, 'conformance-summary.json')));
  const target = obj(obj(summary.facts).target);
  if (target.embedded === true || target.baseUrl !== baseUrl) return [];
  const list: unknown[] = Array.isArray(summary.leftovers) ? summary.leftovers : [];
  return list
    .map(obj)
    .filter((l) => typeof l.what === 'string' && typeof l.restore === 'string' && l.unconfirmable !== true)
    .map((l) => ({ what: l.what, now: l.now, restore: l.restore, key: l.key, at: l.at, baseUrl }));
}

/**
 * Keep what the previous run in `dir` left on the target at `baseUrl` (with what the file held already), before its
 * summary is removed; the lines to print first, empty when nothing is kept for this target.
 */
export function keepEarlierLeftovers(dir: string, baseUrl: string, embedded: boolean): string[] {
  if (embedded) return [];
  const file = join(dir, EARLIER_LEFTOVERS);
  const held: Kept[] = (Array.isArray(json(file)) ? (json(file) as unknown[]) : []).map(obj) as Kept[];
  const all = [...held];
  for (const l of fromSummary(dir, baseUrl))
    if (!all.some((k) => k.baseUrl === l.baseUrl && k.what === l.what && k.restore === l.restore)) all.push(l);
  if (all.length === 0) {
    if (existsSync(file)) rmSync(file, { force: true });
    return [];
  }
  writeFileSync(file, `${JSON.stringify(all, null, 2)}\n`);
  const mine = all.filter((l) => l.baseUrl === baseUrl);
  if (mine.length === 0) return [];
  return [
    `EARLIER RUNS LEFT CHANGES ON THIS TARGET (${mine.length}), kept in ${file}: this run cannot tell whether ` +
      'they were put back; check each before trusting the configured values, and delete the file once they are',
    ...mine.map(
      (l) => `  • ${l.what}${l.now ? `, now ${l.now}` : ''}: restore ${l.restore}${l.at ? ` (${l.at})` : ''}`,
    ),
  ];
}
