import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './_cli';

/** The shipped example configuration as it is (its e-mail and postal address are placeholders the check refuses). */
export function shippedExample(): Record<string, any> {
  return JSON.parse(readFileSync(join(ROOT, 'config', 'example.target.json'), 'utf8')) as Record<string, any>;
}

/** The example as its user must edit it at least: the e-mail and postal address placeholders replaced. */
export function editedExample(): Record<string, any> {
  const e = shippedExample();
  e.testData.customer.emailAddress = 'jordan.lee@example.com';
  e.testData.customer.postalAddress = { address1: '1 Main St', city: 'Springfield', postalCode: '62701' };
  return e;
}

/** editedExample written to a fresh folder (without its $schema): the path of the file. */
export function editedExampleFile(): string {
  const e = editedExample();
  delete e.$schema;
  const file = join(mkdtempSync(join(tmpdir(), 'dbsi-example-')), 'my-target.json');
  writeFileSync(file, JSON.stringify(e));
  return file;
}
