/**
 * A keyed read/write lock: cases that must not overlap on one shared resource of the target (one
 * acceptance record of the configured user, one customer's phone number) take the same key. A case
 * that changes the resource holds the key exclusively; a case that only reads it, or sends a request
 * that a conformant target refuses without changing anything, holds it shared, side by side with the
 * other readers. Everything else still runs concurrently. The lock lives in the process (every case
 * of a run runs in one worker).
 *
 * Readers join the readers that hold a key, also when a writer waits (the readers of a run are few
 * and short, and sharing one record between them is the point); a writer waits until they have left.
 * Otherwise waiters enter in arrival order, and when a writer leaves, every waiting reader enters
 * together.
 */
export type LockMode = 'exclusive' | 'shared';

interface KeyState {
  readers: number;
  writer: boolean;
  queue: Array<{ mode: LockMode; enter: () => void }>;
}

const keys = new Map<string, KeyState>();

function admit(key: string, k: KeyState): void {
  const head = k.queue[0];
  if (head?.mode === 'exclusive' && !k.writer && k.readers === 0) {
    k.queue.shift();
    k.writer = true;
    head.enter();
  } else if (!k.writer && (head?.mode === 'shared' || k.readers > 0)) {
    // Every waiting reader enters; the writers keep their places.
    const readers = k.queue.filter((w) => w.mode === 'shared');
    k.queue = k.queue.filter((w) => w.mode === 'exclusive');
    k.readers += readers.length;
    for (const r of readers) r.enter();
  }
  if (!k.writer && k.readers === 0 && k.queue.length === 0) keys.delete(key);
}

/** Wait for the key in the given mode (exclusive unless told); the returned function releases it (calling it twice is
 * harmless). */
export async function acquireLock(key: string, mode: LockMode = 'exclusive'): Promise<() => void> {
  let k = keys.get(key);
  if (!k) keys.set(key, (k = { readers: 0, writer: false, queue: [] }));
  const state = k;
  await new Promise<void>((enter) => {
    state.queue.push({ mode, enter });
    admit(key, state);
  });
  let released = false;
  return () => {
    if (released) return;
    released = true;
    if (mode === 'exclusive') state.writer = false;
    else state.readers--;
    admit(key, state);
  };
}

/** Run fn while holding the key (exclusive unless told). */
export async function withLock<T>(key: string, fn: () => Promise<T>, mode: LockMode = 'exclusive'): Promise<T> {
  const release = await acquireLock(key, mode);
  try {
    return await fn();
  } finally {
    release();
  }
}

/** Whether nobody holds or waits for the key right now. */
export function lockIsFree(key: string): boolean {
  return !keys.has(key);
}

/** Whether a case could take the key in this mode right now without waiting. */
export function lockIsOpen(key: string, mode: LockMode): boolean {
  const k = keys.get(key);
  if (!k) return true;
  return mode === 'shared' && !k.writer && (k.readers > 0 || k.queue.length === 0);
}

/** Whether readers hold the key right now (a reader that comes enters at once). */
export function lockIsShared(key: string): boolean {
  const k = keys.get(key);
  return k !== undefined && !k.writer && k.readers > 0;
}

/** How many cases hold or wait for the key: to spread cases over several keys (records, customers). */
export function lockLoad(key: string): number {
  const k = keys.get(key);
  return k ? k.readers + (k.writer ? 1 : 0) + k.queue.length : 0;
}
