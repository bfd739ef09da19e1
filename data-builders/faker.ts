import type { Faker } from '@faker-js/faker';
import { faker as english } from '@faker-js/faker/locale/en';

/**
 * A new, separately seeded faker for one case (cases run concurrently, so they cannot share one
 * seeded instance). Built from the English-only entry point: the package's main entry loads every
 * locale, which costs about 0.3 s in each of the run's processes.
 */
export function seededFaker(seed: number): Faker {
  const FakerClass = english.constructor as new (options: { locale: Faker['rawDefinitions'] }) => Faker;
  const f = new FakerClass({ locale: english.rawDefinitions });
  f.seed(seed);
  return f;
}
