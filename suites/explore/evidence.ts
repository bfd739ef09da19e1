import type { CaseContext } from '../../harness/case';
import type { SearchResult, SequenceRun } from './search';

/** The fast-check seed of a run's exploration: fixed by the run's --seed. */
export function seedOf(t: CaseContext, family = 'user-disclosures'): number {
  let h = (t.settings.seed >>> 0) ^ 0x811c9dc5;
  for (const c of `explore:${family}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h | 0;
}

/**
 * What a failure's text adds: the shrunk sequence as numbered lines (operation, form, values, answer), how to
 * run it again (the run's --seed, fast-check's seed and replay path) and the curl lines of the replay (redacted:
 * the secrets come from the environment, as every reproduce line of the run).
 */
export function evidence(
  t: CaseContext,
  found: Omit<NonNullable<SearchResult['found']>, 'run'>,
  replay: { seq: Pick<SequenceRun['seq'], 'lines' | 'results'> },
  confirmed: boolean,
  area = 'disclosures',
): string {
  const lines = [
    '',
    `shrunk sequence (${found.commands.length} command${found.commands.length === 1 ? '' : 's'}: ` +
      `${found.commands.join(', ')}), ` +
      (confirmed
        ? 'as replayed:'
        : 'as it first failed (a replay did not fail: what the target answers depends on what ran before):'),
    ...replay.seq.lines.map((l) => `  ${l}`),
    `replay: npm run conformance -- --seed ${t.settings.seed} --area ${area} --grep "explored sequences" ` +
      `(fast-check seed ${found.seed}, path "${found.path}"${found.replay ? `, ${found.replay}` : ''})`,
    `curl script of ${confirmed ? 'the replay' : 'the sequence'}:`,
    ...replay.seq.results.map((r, k) => `  # ${k + 1}\n  ${r.exchange.curl}`),
  ];
  return lines.join('\n');
}
