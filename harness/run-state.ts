/**
 * The state of one run that the drivers share (issue 22, "per-run state is explicit"): one object, made with
 * the run's client and handed to every case as `t.run` (harness/case.ts), never a module-level registry.
 * Each piece is a named slot that a driver module declares once and that is made on first use in each run:
 *
 *   const LIVES = slot('user-disclosure life', () => ({ life: undefined as Life | undefined }));
 *   const state = t.run.get(LIVES);
 */

/** A named piece of per-run state and how it starts. */
export interface Slot<T> {
  readonly name: string;
  readonly init: () => T;
}

export function slot<T>(name: string, init: () => T): Slot<T> {
  return { name, init };
}

export class RunState {
  private readonly held = new Map<Slot<unknown>, unknown>();

  /** The run's value of a slot, made on first use. */
  get<T>(s: Slot<T>): T {
    if (!this.held.has(s)) this.held.set(s, s.init());
    return this.held.get(s) as T;
  }

  /** The slots this run has used, by name. */
  names(): string[] {
    return [...this.held.keys()].map((s) => s.name);
  }
}
