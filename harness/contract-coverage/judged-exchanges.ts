import type { CaseReport, Exchange } from '../model';
import { OPERATIONS } from '../operations';
import { schemaRegistry } from '../schemas';
import type { SchemaNode } from './model';
import { JsonTooDeep, parseJson } from '../json-depth';

/* The judged exchanges of a run, each read once (headers, query, bodies flattened), and a value against a schema. */

/** What one judged exchange shows, read once. */
export interface Seen {
  caseId: string;
  x: Exchange;
  headers: Map<string, string>;
  query: URLSearchParams;
  body: Flat | undefined;
  answer: Flat | undefined;
  status: number | undefined;
  /** Requirement ids checked (passed or failed) on it. */
  judgedBy: Set<string>;
}

/** A JSON document flattened to member paths (a.b, list[].c) and the values found there. */
type Flat = Map<string, unknown[]>;

function flatten(doc: unknown): Flat | undefined {
  if (doc === null || typeof doc !== 'object') return undefined;
  const out: Flat = new Map();
  const walk = (v: unknown, path: string) => {
    if (path) out.set(path, [...(out.get(path) ?? []), v]);
    if (Array.isArray(v)) for (const item of v) walk(item, `${path}[]`);
    else if (v !== null && typeof v === 'object')
      for (const [k, w] of Object.entries(v)) walk(w, path ? `${path}.${k}` : k);
  };
  walk(doc, '');
  return out;
}

function json(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return parseJson(text);
  } catch (e) {
    return e instanceof JsonTooDeep ? undefined : cutJson(text);
  }
}

/**
 * A JSON body cut short (at the configured size limit, or as a case report crosses from the vitest
 * worker: suites/_register.ts keeps 4 KiB), read as far as it goes: cut back to the last complete
 * member or element and close what is open. Members past the cut are not seen; undefined when
 * nothing of it is JSON.
 */
export function cutJson(text: string): unknown {
  const stack: string[] = [];
  const points: Array<{ at: number; close: string }> = [];
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') {
      stack.push(ch === '{' ? '}' : ']');
      points.push({ at: i + 1, close: [...stack].reverse().join('') });
    } else if (ch === '}' || ch === ']') stack.pop();
    else if (ch === ',') points.push({ at: i, close: [...stack].reverse().join('') });
  }
  for (const p of points.reverse().slice(0, 50)) {
    try {
      return JSON.parse(text.slice(0, p.at) + p.close);
    } catch {
      // an earlier point
    }
  }
  return undefined;
}

const validators = new Map<string, (v: unknown) => boolean>();
export function fits(schema: SchemaNode, value: unknown): boolean {
  const key = JSON.stringify(schema);
  let v = validators.get(key);
  if (!v) {
    const { examples: _e, ...rest } = schema;
    const compiled = schemaRegistry().compile(rest);
    v = (x: unknown) => compiled(x) as boolean;
    validators.set(key, v);
  }
  return v(value);
}

/** A header's or query parameter's text against its documented value (a string, or "true"/"false"). */
export function textFits(schema: SchemaNode, text: string): boolean {
  const asText: SchemaNode = { ...schema, type: 'string' };
  if (Array.isArray(schema.enum)) asText.enum = schema.enum.map(String);
  return fits(asText, text);
}

/**
 * The judged exchanges of the run. A check may judge an exchange another case sent (a shared list:
 * CaseReport.judged), so exchanges are found by seq across the run; the evidence names the judging case.
 */
export function judgedExchanges(cases: CaseReport[]): Seen[] {
  const sent = new Map<number, Exchange>();
  for (const c of cases) for (const x of c.exchanges) sent.set(x.seq, x);
  const out = new Map<number, Seen>();
  for (const c of cases) {
    const mine = new Set([...c.exchanges.map((x) => x.seq), ...(c.judged ?? [])]);
    for (const k of c.checks) {
      if (k.exchange === undefined || !k.requirement || k.outcome === 'not-applicable' || !mine.has(k.exchange))
        continue;
      const x = sent.get(k.exchange);
      if (!x || x.notSent || !(x.operation in OPERATIONS)) continue;
      const seen = out.get(x.seq) ?? seenOf(c.id, x);
      seen.judgedBy.add(k.requirement);
      out.set(x.seq, seen);
    }
  }
  return [...out.values()].sort((a, b) => a.x.seq - b.x.seq);
}

/**
 * The exchanges each catalog rule was judged with: those of every case with a check naming it that passed
 * or failed (its own and those its verdict rests on), so that a state rule judged on the list after a create
 * counts for the create too.
 */
export function ruleExchanges(cases: CaseReport[]): Array<{ rule: string; caseId: string; x: Exchange }> {
  const sent = new Map<number, Exchange>();
  for (const c of cases) for (const x of c.exchanges) sent.set(x.seq, x);
  const out: Array<{ rule: string; caseId: string; x: Exchange }> = [];
  for (const c of cases) {
    const rules = new Set(
      c.checks.filter((k) => k.requirement && k.outcome !== 'not-applicable').map((k) => k.requirement),
    );
    const xs = [...c.exchanges.map((x) => x.seq), ...(c.judged ?? [])].map((seq) => sent.get(seq));
    for (const rule of rules) {
      for (const x of xs)
        if (x && !x.notSent && x.response && x.operation in OPERATIONS) out.push({ rule, caseId: c.id, x });
    }
  }
  return out;
}

function seenOf(caseId: string, x: Exchange): Seen {
  let query = new URLSearchParams();
  try {
    query = new URL(x.request.url).searchParams;
  } catch {
    // not a URL: no query
  }
  return {
    caseId,
    x,
    headers: new Map(Object.entries(x.request.headers).map(([k, v]) => [k.toLowerCase(), v])),
    query,
    body: flatten(json(x.request.body)),
    answer: x.response ? flatten(json(x.response.body)) : undefined,
    status: x.response?.status,
    judgedBy: new Set(),
  };
}

/** 'a.b' -> 'a', 'a[].b' -> 'a[]', 'a[]' -> 'a', 'a' -> undefined. */
export function parentOf(path: string): string | undefined {
  const m = /^(.*)(\.[^.[\]]+|\[\])$/.exec(path);
  return m?.[1] || undefined;
}
