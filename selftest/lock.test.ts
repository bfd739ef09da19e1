import { describe, expect, test } from 'vitest';
import { acquireLock, lockIsFree, lockIsOpen, lockLoad } from '../harness/lock';

/** harness/lock.ts: writers exclude everyone, readers share, waiters enter in arrival order. */

/** Take the key in each mode in turn and record who holds it with whom. */
async function scenario(modes: Array<'exclusive' | 'shared'>, key: string) {
  const holding = new Set<number>();
  const seen: Array<{ who: number; with: number[] }> = [];
  const releases: Array<() => void> = [];
  const order: number[] = [];
  const entered = modes.map((mode, who) =>
    acquireLock(key, mode).then((release) => {
      order.push(who);
      seen.push({ who, with: [...holding] });
      holding.add(who);
      releases[who] = () => {
        holding.delete(who);
        release();
      };
    }),
  );
  return { holding, seen, releases, order, entered };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('the keyed read/write lock', () => {
  test(
    'readers hold a key together, also joined by readers that come while a ' +
      'writer waits; the writer enters when all have left',
    async () => {
      const s = await scenario(['shared', 'shared', 'exclusive', 'shared'], 'k1');
      await tick();
      expect([...s.holding].sort()).toEqual([0, 1, 3]);
      expect(lockLoad('k1')).toBe(4);
      expect(lockIsOpen('k1', 'shared')).toBe(true);
      expect(lockIsOpen('k1', 'exclusive')).toBe(false);
      s.releases[0]!();
      s.releases[3]!();
      await tick();
      expect([...s.holding]).toEqual([1]);
      s.releases[1]!();
      await tick();
      expect([...s.holding]).toEqual([2]);
      expect(s.seen.find((x) => x.who === 2)!.with).toEqual([]);
      s.releases[2]!();
      await Promise.all(s.entered);
      expect(s.order).toEqual([0, 1, 3, 2]);
      expect(lockIsFree('k1')).toBe(true);
    },
  );

  test('a writer holds a key alone; the readers waiting behind it enter together, before a later writer', async () => {
    const s = await scenario(['exclusive', 'shared', 'exclusive', 'shared', 'exclusive'], 'k2');
    await tick();
    expect([...s.holding]).toEqual([0]);
    expect(lockIsOpen('k2', 'shared')).toBe(false);
    s.releases[0]!();
    await tick();
    expect([...s.holding].sort()).toEqual([1, 3]);
    s.releases[3]!();
    s.releases[1]!();
    await tick();
    expect([...s.holding]).toEqual([2]);
    s.releases[2]!();
    s.releases[2]!(); // twice: harmless
    await tick();
    expect([...s.holding]).toEqual([4]);
    s.releases[4]!();
    await Promise.all(s.entered);
    expect(s.order).toEqual([0, 1, 3, 2, 4]);
    expect(lockIsFree('k2')).toBe(true);
  });

  test('keys are independent, and a free key is open in both modes', async () => {
    expect(lockIsOpen('k3', 'exclusive')).toBe(true);
    const a = await acquireLock('k3', 'shared');
    expect(lockIsOpen('k3', 'shared')).toBe(true);
    expect(lockIsOpen('k3', 'exclusive')).toBe(false);
    const b = await acquireLock('k4');
    expect(lockIsFree('k4')).toBe(false);
    a();
    b();
    expect(lockIsFree('k3') && lockIsFree('k4')).toBe(true);
  });
});
