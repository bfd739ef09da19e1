import { readFileSync } from 'node:fs';
import { SCHEMA_DIR } from './schemas';

/**
 * The values the spec only shows for an enumeration ("value shown: URL"), never the whole set: an
 * unlisted value is an INFO observation (shown_value). They are written once, as the `examples` of
 * the member in schemas/ (where the OpenAPI document takes them too), and read from there by the
 * suites' and the recorded-traffic judge's checks.
 */
export function shownValues(schema: string, ...path: string[]): readonly string[] {
  const doc = JSON.parse(readFileSync(`${SCHEMA_DIR}${schema}.schema.json`, 'utf8')) as unknown;
  const at = path.reduce<unknown>(
    (o, k) => (o !== null && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
    doc,
  );
  const examples = (at as { examples?: unknown } | undefined)?.examples;
  if (!Array.isArray(examples) || examples.length === 0 || !examples.every((e) => typeof e === 'string'))
    throw new Error(`suite bug: schemas/${schema}.schema.json has no string examples at ${path.join('/')}`);
  return Object.freeze([...examples] as string[]);
}

/** Every enumeration the spec shows values of, by the member that carries it. */
export const SHOWN = {
  institutionDisclosureDataType: shownValues('institution-disclosure', 'properties', 'institutionDisclosureDataType'),
  institutionUserDisclosureStatus: shownValues(
    'institution-user-disclosure',
    'properties',
    'institutionUserDisclosureStatus',
  ),
  tokenErrorType: shownValues('token-error', 'properties', 'errorInfo', 'properties', 'errorType'),
  currencyCode: shownValues('money', 'properties', 'currencyCode'),
  paymentOption: shownValues('transfer', 'properties', 'paymentOption'),
  transferStatus: shownValues('transfer', 'properties', 'status'),
  lifeType: shownValues('schedule', 'properties', 'lifeType'),
  frequency: shownValues('schedule', 'properties', 'frequency'),
} as const;
