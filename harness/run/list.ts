import type { TargetConfig } from '../config';
import type { Area } from '../model';
import { OPERATIONS } from '../operations';
import { requirement } from '../../requirements';
import { FEATURES_BY_AREA } from '../../suites';
import { plural } from './console';
import { selects, type CaseFilter } from './filter';

/**
 * --list: the tests a selection runs, grouped by area and operation as the reports show them, each
 * with its requirement ids and grades. With a configured target, tests of an operation whose
 * safety switch is off are marked: the run would report them skipped.
 */
export function listTests(areas: Area[], filter: CaseFilter, config?: TargetConfig): { text: string; count: number } {
  const lines: string[] = [];
  let count = 0;
  let gated = 0;
  for (const area of areas) {
    for (const f of FEATURES_BY_AREA[area]) {
      const cases = f.cases.filter((c) => selects(filter, f, c));
      if (!cases.length) continue;
      const op = OPERATIONS[f.operation];
      const sw = 'mutates' in op ? op.mutates : undefined;
      const off = sw && config && !config.allow[sw];
      lines.push(
        `${area} › ${op.number}. ${op.name} (${op.method} ` +
          `${op.path}${sw ? `, needs allow.${sw}${off ? ': off, skipped' : ''}` : ''})`,
      );
      for (const c of cases) {
        lines.push(`  ${c.title}  [${c.requirements.map((id) => `${id} ${requirement(id).grade}`).join(', ')}]`);
        count++;
        if (off) gated++;
      }
    }
  }
  lines.push(
    '',
    `${plural(count, 'test')} ` +
      `selected${gated ? `, of which ${gated} would be skipped (allow.* off)` : ''}; ` +
      `nothing was sent.`,
  );
  return { text: lines.join('\n'), count };
}
