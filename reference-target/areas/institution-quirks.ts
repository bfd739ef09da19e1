import type { AreaContext } from './types';

/**
 * Fault op3-third-change-not-stored (reference-target/faults/institution-explored.ts): a counter of the changes of
 * each institution disclosure; from the third change of the same disclosure on, the change is answered but not
 * stored. The hand-written tests change a disclosure twice at most: only the explorer reaches it.
 */
export function laterChangesLost(ctx: AreaContext): (id: string) => boolean {
  const changes = new Map<string, number>();
  return (id) => {
    const n = (changes.get(id) ?? 0) + 1;
    changes.set(id, n);
    return n >= 3 && ctx.fault('op3-third-change-not-stored');
  };
}
