import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { CATALOG, sectionAnchor } from '../requirements';
import { caseId } from '../harness/case';
import { FAULTS } from '../reference-target/faults';
import { FEATURES_BY_AREA } from '../suites';

/**
 * The requirement catalog is complete and traceable: ids are unique and stable-looking, every
 * section is a heading of the spec, every testable entry has a test, every test names known ids,
 * and every requirement a test checks can be tripped by a named fault of the reference target
 * ("a check no fault can trip proves nothing").
 */

const spec = readFileSync(new URL('../spec/digital-banking-service-interface.md', import.meta.url), 'utf8');
const headings = new Set([...spec.matchAll(/^#{2,4} (.+)$/gm)].map((m) => sectionAnchor(m[1]!)));
const cases = Object.values(FEATURES_BY_AREA)
  .flat()
  .flatMap((f) => f.cases.map((c) => ({ id: caseId(f, c), requirements: c.requirements })));
const declaredBy = new Map<string, string[]>();
for (const c of cases) for (const r of c.requirements) declaredBy.set(r, [...(declaredBy.get(r) ?? []), c.id]);
const byId = new Map(CATALOG.map((r) => [r.id, r]));
const broken = new Set(FAULTS.flatMap((f) => f.breaks));

const list = (ids: string[]) => (ids.length ? `\n  ${ids.join('\n  ')}` : '');

/** Text as a quote is compared: markdown table bars, emphasis and code marks gone, white space collapsed, any case. */
const plain = (t: string) => t.replace(/[`*|]/g, ' ').replace(/\s+/g, ' ').toLowerCase();
/** The spec's words as a quote reads them: a list item is a sentence ("- GET …" then "- Headers: …"). */
const specWords = plain(
  spec
    .split('\n')
    .map((l) => l.replace(/^\s*-\s+/, '').replace(/\s+$/, ''))
    .map((l) => (l && !/[.:;]$/.test(l) ? `${l}.` : l))
    .join('\n'),
);
/** The passages a quote is made of: "…" (or "...") marks a cut, "[…]" an editor's insertion or omission. */
const quotedPieces = (quote: string) =>
  quote
    .split(/\s*(?:…|\.\.\.|\[[^\]]*\])\s*/)
    .map((p) =>
      plain(p)
        .trim()
        .replace(/^[.:;, ]+|[.:;, ]+$/g, ''),
    )
    .filter((p) => p.length > 3);

describe('requirement catalog', () => {
  test('every passage a statement quotes is the spec\'s words ("…" and "[…]" mark the only edits)', () => {
    const misquoted = CATALOG.flatMap((r) =>
      [...r.statement.matchAll(/"([^"]*)"/g)]
        .filter((m) => m[1]!.length >= 12)
        .flatMap((m) => quotedPieces(m[1]!).filter((p) => !specWords.includes(p)))
        .map((p) => `${r.id}: "${p}"`),
    );
    expect(misquoted, `quotes that are not in the spec:${list(misquoted)}`).toEqual([]);
    // The comparison can fail: a word changed in a real quote is found.
    expect(quotedPieces('Which transfer fields are optional: not shown').every((p) => specWords.includes(p))).toBe(
      false,
    );
  });

  test('ids are unique', () => {
    const seen = new Set<string>();
    const dupes = CATALOG.map((r) => r.id).filter((id) => (seen.has(id) ? true : (seen.add(id), false)));
    expect(dupes, `duplicate requirement ids:${list(dupes)}`).toEqual([]);
  });

  test('ids are AREA-TOPIC-DETAIL capitals, with a statement, a grade and operation numbers 1–11', () => {
    const bad = CATALOG.filter(
      (r) =>
        !/^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/.test(r.id) ||
        r.statement.trim().length < 10 ||
        !['MUST', 'SHOULD', 'INFO'].includes(r.grade) ||
        r.operations.some((n) => !Number.isInteger(n) || n < 1 || n > 11),
    ).map((r) => r.id);
    expect(bad, `malformed entries:${list(bad)}`).toEqual([]);
  });

  test('every section is a heading of the spec (so its link anchor resolves)', () => {
    const bad = CATALOG.filter((r) => !headings.has(sectionAnchor(r.section))).map((r) => `${r.id}: "${r.section}"`);
    expect(bad, `sections that are not spec headings:${list(bad)}`).toEqual([]);
  });

  test('every "not testable" entry gives its reason and is declared by no test', () => {
    const noReason = CATALOG.filter((r) => r.notTestable !== undefined && r.notTestable.trim().length < 10).map(
      (r) => r.id,
    );
    expect(noReason, `not-testable entries without a reason:${list(noReason)}`).toEqual([]);
    const declared = CATALOG.filter((r) => r.notTestable !== undefined && declaredBy.has(r.id)).map(
      (r) => `${r.id} (declared by ` + `${declaredBy.get(r.id)!.join(', ')})`,
    );
    expect(declared, `tests declaring a requirement marked not testable:${list(declared)}`).toEqual([]);
  });

  test('every id a test declares exists in the catalog', () => {
    const unknown = cases.flatMap((c) => c.requirements.filter((r) => !byId.has(r)).map((r) => `${r} (in ${c.id})`));
    expect(unknown, `unknown requirement ids declared by tests:${list(unknown)}`).toEqual([]);
  });

  test('every testable catalog entry is declared by at least one test', () => {
    const untested = CATALOG.filter(
      (r) => r.notTestable === undefined && r.judgedInTraffic === undefined && !declaredBy.has(r.id),
    ).map((r) => `${r.id} (${r.section})`);
    expect(
      untested,
      `testable requirements no test declares (add a test, or mark the entry ` +
        `notTestable with the reason):${list(untested)}`,
    ).toEqual([]);
  });

  test('every requirement a test checks is broken by some named fault', () => {
    const untripped = [...declaredBy.keys()]
      .filter((id) => byId.has(id) && !broken.has(id))
      .map((id) => `${id} (checked by ${declaredBy.get(id)!.join(', ')})`);
    expect(untripped, `requirements no fault can trip:${list(untripped)}`).toEqual([]);
  });

  test('every fault breaks known, tested requirements and declares known collateral', () => {
    const bad = FAULTS.flatMap((f) => [
      ...f.breaks.filter((id) => !byId.has(id)).map((id) => `${f.name}: breaks unknown ${id}`),
      ...f.breaks
        .filter((id) => byId.has(id) && !declaredBy.has(id))
        .map((id) => `${f.name}: breaks ${id}, which no test checks`),
      ...(f.collateral ?? []).filter((id) => !byId.has(id)).map((id) => `${f.name}: collateral unknown ${id}`),
      ...(f.breaks.length === 0 && !f.variant
        ? [`${f.name}: breaks nothing (mark it a variant ` + `if that is the point)`]
        : []),
      ...(f.breaks.length > 0 && f.variant ? [`${f.name}: a variant must break nothing`] : []),
    ]);
    expect(bad, list(bad)).toEqual([]);
  });

  test('fault names are unique', () => {
    const names = FAULTS.map((f) => f.name);
    expect(names.filter((n, i) => names.indexOf(n) !== i)).toEqual([]);
  });
});
