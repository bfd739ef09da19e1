import { sectionAnchor } from '../requirements';
import type { TargetConfig } from './config';
import type { ExploreSettings } from './explore-settings';

/** What a run knows, the same in every worker: the target, the seed, strictness. */
export interface RunSettings {
  config: TargetConfig;
  seed: number;
  strict: boolean;
  /** Short id of this run, used to name what the run creates on the target (e.g. "r4k2"). */
  runId: string;
  /** Where links to spec sections point. */
  specUrl: string;
  /** The model-based explorer's budget (undefined: the embedded target's default). */
  explore?: ExploreSettings;
}

export function specLink(settings: RunSettings, section: string): string {
  return `${settings.specUrl}#${sectionAnchor(section)}`;
}
