import type { TargetConfig } from './config';
import type { Area, SafetySwitch } from './model';
import { OPERATIONS } from './operations';

/** The operations with their area and the safety switch that gates them, if any. */
const GATED: Array<{ area: Area; mutates?: SafetySwitch }> = Object.values(OPERATIONS);

/**
 * Whether a run sends anything in the area: not when every operation of it is behind a safety switch that is off
 * (its tests are then "not allowed on this target" and need no secret: issue 34).
 */
export function areaSends(cfg: Pick<TargetConfig, 'allow'>, area: Area): boolean {
  return GATED.some((o) => o.area === area && (!o.mutates || cfg.allow[o.mutates]));
}

/** How to run without the areas that miss something: the --area that leaves them out, or their switch off. */
export function withoutHint(cfg: TargetConfig, areas: readonly Area[], lacking: readonly Area[]): string {
  const others = areas.filter((a) => !lacking.includes(a));
  const switches = [
    ...new Set(
      GATED.filter((o) => lacking.includes(o.area) && o.mutates && cfg.allow[o.mutates]).map(
        (o) => `allow.${o.mutates}`,
      ),
    ),
  ];
  const ways = [
    ...(others.length ? [`--area ${others.join(',')}`] : []),
    ...(switches.length === lacking.length ? [`${switches.join(' and ')} set to false`] : []),
  ];
  return ways.length ? ` (to run without ${lacking.join(', ')}: ${ways.join(', or ')})` : '';
}
