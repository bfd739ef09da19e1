/**
 * The example configuration (config/example.target.json) ships no plausible-looking contact data: its e-mail and
 * postal address are placeholders, each a text that begins with PLACEHOLDER_MARK. The interface cannot read them
 * back, so a copied example left as it was would overwrite the customer's real values with the example's.
 */
export const PLACEHOLDER_MARK = 'REPLACE';

const IS_PLACEHOLDER = new RegExp(`^\\s*${PLACEHOLDER_MARK}\\b`);

/** The keys of a raw configuration whose value is still a placeholder (e.g. testData.customer.emailAddress). */
export function placeholderKeys(raw: unknown): string[] {
  const out: string[] = [];
  const stack: Array<{ v: unknown; path: string }> = [{ v: raw, path: '' }];
  // Bounded: a configuration is at most 1 MiB and 16 levels deep (harness/config.ts).
  for (let n = 0; stack.length && n < 1_000_000; n++) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string' && IS_PLACEHOLDER.test(v)) out.push(path);
    if (v === null || typeof v !== 'object') continue;
    for (const [k, x] of Object.entries(v)) {
      const at = Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
      stack.push({ v: x, path: at });
    }
  }
  // One key per address: its fields are replaced together.
  return [...new Set(out.map((k) => k.replace(/(\.postalAddress)\..*$/, '$1')))].sort();
}

/** The one message that refuses a configuration still holding placeholders, naming each key. */
export function placeholderMessage(keys: string[]): string {
  const named = keys.map((k) => `"${k}"`).join(', ');
  return (
    `${named} still ${keys.length === 1 ? 'holds' : 'hold'} the example's placeholder ("${PLACEHOLDER_MARK} …"): ` +
    'set each to the value on record for that customer, or remove the e-mail and postal address (the suite then ' +
    'changes neither). The interface cannot read them back, so a value that is not the one on record would ' +
    "overwrite the customer's real one"
  );
}
