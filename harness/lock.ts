/**
 * A small keyed mutex: cases that must not overlap on one shared resource of the target (the one
 * configured user's disclosure records) take the same key; everything else still runs concurrently.
 * The lock lives in the process (every case of an area runs in one worker).
 */
const tails = new Map<string, Promise<void>>();

/** Wait for the key; the returned function releases it (calling it twice is harmless). */
export async function acquireLock(key: string): Promise<() => void> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  tails.set(key, tail);
  await previous;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
    if (tails.get(key) === tail) tails.delete(key);
  };
}

/** Run fn while holding the key. */
export async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const release = await acquireLock(key);
  try {
    return await fn();
  } finally {
    release();
  }
}

/** Whether nobody holds or waits for the key right now. */
export function lockIsFree(key: string): boolean {
  return !tails.has(key);
}
