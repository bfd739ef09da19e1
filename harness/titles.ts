import type { Feature } from './case';
import type { Area } from './model';
import { OPERATIONS } from './operations';

/**
 * Test titles name their operation wherever the same behaviour is tested on several operations
 * ("List institution disclosures: is not served without credentials"): a title that occurs in more
 * than one feature is prefixed with the operation's name, so that failure lines, Allure names and
 * categories, JUnit and --grep tell the tests apart. Derived from the features, not from a list:
 * a new shared case is named the same way.
 */
export function qualifySharedTitles(byArea: Record<Area, Feature[]>): Record<Area, Feature[]> {
  const features = Object.values(byArea).flat();
  const owners = new Map<string, Set<Feature>>();
  for (const f of features) for (const c of f.cases) owners.set(c.title, (owners.get(c.title) ?? new Set()).add(f));
  const qualify = (f: Feature): Feature => ({
    ...f,
    cases: f.cases.map((c) =>
      (owners.get(c.title)?.size ?? 0) > 1 ? { ...c, title: `${OPERATIONS[f.operation].name}: ${c.title}` } : c,
    ),
  });
  return Object.fromEntries(Object.entries(byArea).map(([area, list]) => [area, list.map(qualify)])) as Record<
    Area,
    Feature[]
  >;
}
