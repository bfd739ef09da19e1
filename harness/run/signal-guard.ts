/** Signals this close to the first are the same Ctrl-C, delivered more than once. */
export const SAME_CTRL_C_MS = 1_000;

/**
 * The signals that stop a run with its clean-ups and reports: a Ctrl-C, a SIGTERM, and a SIGHUP (the terminal or
 * the SSH session closed). Node's default for each ends the process at once, leaving changed records as they are.
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];
const isStopSignal = (ev: string | symbol): boolean => (STOP_SIGNALS as readonly (string | symbol)[]).includes(ev);

/**
 * While a run may still write its reports, only its own STOP_SIGNALS handlers (`mine()`) are registered:
 * any other registration (vitest's logger exits the process at once) is dropped. `release` restores the
 * process's methods.
 */
export function guardSignals(mine: () => Array<(...a: any[]) => void>): { release(): void } {
  const methods = ['on', 'once', 'addListener', 'prependListener', 'prependOnceListener'] as const;
  const original = Object.fromEntries(methods.map((m) => [m, process[m]])) as Pick<
    NodeJS.Process,
    (typeof methods)[number]
  >;
  for (const m of methods) {
    process[m] = function (this: NodeJS.Process, ev: string | symbol, l: (...a: any[]) => void) {
      if (isStopSignal(ev) && !mine().includes(l)) return this;
      return (original[m] as (...a: unknown[]) => NodeJS.Process).call(this, ev, l);
    } as never;
  }
  return { release: () => Object.assign(process, original) };
}
