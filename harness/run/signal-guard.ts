/** Signals this close to the first are the same Ctrl-C, delivered more than once. */
export const SAME_CTRL_C_MS = 1_000;

/**
 * While a run may still write its reports, only its own SIGINT/SIGTERM handlers (`mine()`) are registered:
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
      if ((ev === 'SIGINT' || ev === 'SIGTERM') && !mine().includes(l)) return this;
      return (original[m] as (...a: unknown[]) => NodeJS.Process).call(this, ev, l);
    } as never;
  }
  return { release: () => Object.assign(process, original) };
}
