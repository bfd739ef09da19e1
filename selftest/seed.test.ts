import { describe, expect, test } from 'vitest';
import { seededFaker } from '../data-builders/faker';
import { runAreas } from './_reference';

describe('--seed', () => {
  test('a seeded faker repeats its values, another seed gives others', () => {
    const values = (seed: number) => {
      const f = seededFaker(seed);
      return [f.string.uuid(), f.person.fullName(), f.location.city()];
    };
    expect(values(7)).toEqual(values(7));
    expect(values(7)).not.toEqual(values(8));
  });

  test('the same seed sends the same generated values in a run', async () => {
    const sent = async (seed: number) =>
      (await runAreas({ areas: ['money-movement'], seed })).cases
        .flatMap((c) =>
          c.exchanges.map((e) => `${c.id} ${e.request.headers.transactionId ?? ''} ` + `${e.request.body ?? ''}`),
        )
        .sort();
    const a = await sent(99);
    expect(a.length).toBeGreaterThan(0);
    expect(await sent(99)).toEqual(a);
    expect(await sent(100)).not.toEqual(a);
  });
});
