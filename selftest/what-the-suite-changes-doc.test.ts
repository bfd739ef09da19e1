import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { PLACEHOLDER_MARK } from '../harness/config-placeholders';
import { SET_TO_CONFIGURED } from '../suites/contact-info/_unconfirmable';
import { ROOT } from './_cli';

/** Issue 30: what the suite may change on a real target and what it cannot put back, said where a user reads. */
describe('docs/what-the-suite-changes.md', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'what-the-suite-changes.md'), 'utf8').replace(/\s+/g, ' ');
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');

  test('the README links it, and no longer says the example works as copied', () => {
    expect(readme).toContain('[docs/what-the-suite-changes.md](docs/what-the-suite-changes.md)');
    expect(readme).not.toMatch(/works when\s+copied/);
  });

  test('it names the key, the words and the placeholder the suite uses', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'config.schema.json'), 'utf8'));
    expect(schema.definitions.customer.properties.emailAndPostalConfirmed.type).toBe('boolean');
    expect(doc).toContain('"emailAndPostalConfirmed": true');
    expect(doc).toContain(SET_TO_CONFIGURED);
    expect(doc).toContain(`(\`${PLACEHOLDER_MARK} …\`)`);
    const example = readFileSync(join(ROOT, 'config', 'example.target.json'), 'utf8');
    expect(example).toContain(`"emailAddress": "${PLACEHOLDER_MARK} `);
  });
});
