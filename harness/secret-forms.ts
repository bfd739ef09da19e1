/**
 * The shapes one secret can take in a target's answer or in a report: what redaction replaces and
 * what the evidence scan looks for. One definition for both, so that whatever the scan would find,
 * redaction has already removed.
 *
 * Text encodings are matched character by character: each character of the secret may appear as
 * itself or escaped, JSON-style (`\"`, `\\`, `\/`, `\u0022`), as an XML/HTML entity (`&quot;`,
 * `&#34;`, `&#x22;`, `&apos;`, `&#39;`), URL-encoded (`%22`, `%2f`, `+` for a space), and each of
 * those escaped once more (a JSON body quoted in a JSON report: `\\\"`; JSON in JUnit XML:
 * `\&quot;`). So every escaping style and every nesting of two is covered without listing their
 * combinations. Binary encodings: base64 and base64url of the secret itself; a secret inside a
 * longer base64 text (a Basic header, the HTML report's data) is found by decoding that text.
 */

export interface SecretForm {
  form: string;
  value: string;
}

const hex2 = (n: number) => n.toString(16).padStart(2, '0');
const hex4 = (n: number) => n.toString(16).padStart(4, '0');
const utf8Bytes = (s: string) => [...Buffer.from(s, 'utf8')];

/** One level of escaping of a text, in every style a producer may use. */
const ESCAPINGS: Array<(s: string) => string[]> = [
  // JSON
  (s) => {
    const j = JSON.stringify(s).slice(1, -1);
    const u = (upper: boolean) =>
      [...s]
        .map((c) =>
          /[A-Za-z0-9 ]/.test(c) ? c : `\\u${upper ? hex4(c.charCodeAt(0)).toUpperCase() : hex4(c.charCodeAt(0))}`,
        )
        .join('');
    return [j, j.replace(/\//g, '\\/'), u(false), u(true)];
  },
  // XML / HTML entities
  (s) => {
    const named = (apos: string) =>
      s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, apos);
    const numeric = (f: (n: number) => string) => s.replace(/[&<>"']|[^\x00-\x7f]/g, (c) => f(c.charCodeAt(0)));
    return [
      named('&apos;'),
      named('&#39;'),
      named('&#x27;'),
      numeric((n) => `&#${n};`),
      numeric((n) => `&#x${n.toString(16)};`),
      numeric((n) => `&#x${n.toString(16).toUpperCase()};`),
    ];
  },
  // URL
  (s) => {
    const all = (upper: boolean) =>
      utf8Bytes(s)
        .map((b) =>
          /[A-Za-z0-9]/.test(String.fromCharCode(b))
            ? String.fromCharCode(b)
            : `%${upper ? hex2(b).toUpperCase() : hex2(b)}`,
        )
        .join('');
    const component = encodeURIComponent(s);
    return [
      component,
      component.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
      component.replace(/%20/g, '+'),
      all(true),
      all(false),
    ];
  },
];

/** Every way one character may be written: itself, escaped once, and escaped twice. */
function characterForms(c: string): string[] {
  const forms = new Set([c]);
  let frontier = [c];
  for (let depth = 0; depth < 2; depth++) {
    const next: string[] = [];
    for (const s of frontier)
      for (const esc of ESCAPINGS)
        for (const v of esc(s))
          if (!forms.has(v)) {
            forms.add(v);
            next.push(v);
          }
    frontier = next;
  }
  return [...forms];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const patternCache = new Map<string, string>();

/** The source of a regular expression that matches the secret in every text encoding (see above). */
export function secretPatternSource(secret: string): string {
  let src = patternCache.get(secret);
  if (src === undefined) {
    src = [...secret]
      .map((c) => {
        const forms = characterForms(c).sort((a, b) => b.length - a.length);
        return forms.length === 1 ? escapeRegExp(c) : `(?:${forms.map(escapeRegExp).join('|')})`;
      })
      .join('');
    patternCache.set(secret, src);
  }
  return src;
}

/** The binary encodings of the secret itself: base64 (padded and not) and base64url. */
export function binaryForms(secret: string): SecretForm[] {
  const b = Buffer.from(secret);
  const forms = [
    { form: 'base64', value: b.toString('base64') },
    { form: 'base64', value: b.toString('base64').replace(/=+$/, '') },
    { form: 'base64url', value: b.toString('base64url') },
  ];
  return forms.filter((f, i) => forms.findIndex((g) => g.value === f.value) === i);
}

/**
 * The characters of base64 (and base64url) that hold only the secret's bits, at each of the three
 * alignments a secret can have inside a longer base64 text: every base64 text containing the
 * secret contains one of them (10 characters or more for a secret of 8).
 */
export function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const cores = [0, 1, 2].map((k) => {
    const enc = Buffer.concat([Buffer.alloc(k), bytes]).toString('base64');
    return enc.slice(k === 0 ? 0 : k + 1, Math.floor(((k + bytes.length) * 8) / 6));
  });
  return [...new Set([...cores, ...cores.map((c) => c.replace(/\+/g, '-').replace(/\//g, '_'))])];
}

/** A regular expression matching the secret in every form, text and binary (global). */
export function secretPattern(secret: string): RegExp {
  return new RegExp(
    [secretPatternSource(secret), ...binaryForms(secret).map((f) => escapeRegExp(f.value))].join('|'),
    'g',
  );
}

/**
 * Literal pieces of which every form of the secret holds at least one: its longest run of letters
 * and digits (never escaped by any text encoding) and its binary forms. A text holding none of them
 * cannot hold the secret, so the pattern need not run. Empty when the secret has no such run of 3.
 */
export function secretAnchors(secret: string): string[] {
  const run = (secret.match(/[A-Za-z0-9]+/g) ?? []).sort((a, b) => b.length - a.length)[0] ?? '';
  return run.length >= 3 ? [run, ...binaryForms(secret).map((f) => f.value)] : [];
}

/** What a person is told about a found form of a secret (never the value). */
export function describeForm(found: string, secret: string): string {
  if (found === secret) return 'plain text';
  const b = binaryForms(secret).find((f) => f.value === found);
  if (b) return b.form;
  const more = (re: RegExp) => (found.match(re) ?? []).length > (secret.match(re) ?? []).length;
  const kinds = [
    more(/\\/g) ? 'JSON-escaped' : '',
    more(/&(#x?[0-9a-fA-F]+|[a-z]+);/g) ? 'XML/HTML-escaped' : '',
    more(/%[0-9a-fA-F]{2}|\+/g) ? 'URL-encoded' : '',
  ].filter(Boolean);
  return kinds.length ? kinds.join(', then ') : 'an escaped form';
}
