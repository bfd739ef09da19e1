import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_DIR } from './schemas';

/** The members a schema of schemas/ documents (its properties), in the spec's order. */
function members(name: string): string[] {
  const schema = JSON.parse(readFileSync(join(SCHEMA_DIR, `${name}.schema.json`), 'utf8')) as { properties: object };
  return Object.keys(schema.properties);
}

/**
 * Every member the spec documents for Transfer and for its Schedule ("Resources and their fields"),
 * one list for the active suite and the traffic judge (OP9-REQUEST-EVERY-MEMBER).
 */
export const TRANSFER_MEMBERS: readonly string[] = members('transfer');
export const SCHEDULE_MEMBERS: readonly string[] = members('schedule');
