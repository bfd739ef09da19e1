import type { TargetConfig } from './config';

/** The name of the embedded run's configuration (reference-target/config.ts), printed by npm run reference too. */
export const EMBEDDED_TARGET_NAME = 'embedded reference target';

/**
 * The embedded reference target, the suite's own: only there may the explorers move money, create institution
 * disclosures at will or write e-mail and postal addresses. Its configuration is never a file's (`ownTarget`, set by
 * the embedded run alone): a pasted copy of what `npm run reference` prints keeps the name, and points at a real
 * target (session 40's safety hold-out set, rows C17 and M3). The name too: a self-test renames the embedded
 * configuration to stand for a configured target.
 */
export function isEmbeddedTarget(config: Pick<TargetConfig, 'ownTarget' | 'name'>): boolean {
  return config.ownTarget === true && config.name === EMBEDDED_TARGET_NAME;
}
