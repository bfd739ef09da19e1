import { OPERATIONS, type BaseUrlKey, type OperationKey } from '../operations';
import type { Observed } from '../rules/exchange';

export type BaseUrls = Record<BaseUrlKey, string | undefined> & { contactInfoBaseUrl?: string };

export type { Mapped } from '../rules/exchange';
import type { Mapped } from '../rules/exchange';

/** Why an entry was not judged. */
export type Ignored = 'other host' | 'not an API path' | 'undocumented method' | 'not a URL';

function parse(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** Base URL without a trailing slash, origin in lower case, default port dropped (new URL does that). */
function normalBase(base: string): { origin: string; prefix: string } | undefined {
  const u = parse(base);
  return u && { origin: u.origin.toLowerCase(), prefix: u.pathname.replace(/\/+$/, '') };
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Each operation's path template as a pattern on the path after its base URL. */
const PATTERNS = patternsFor({});

/** The patterns, with the paths a configuration declares instead of the spec's (paths). */
function patternsFor(paths: Partial<Record<OperationKey, string>>) {
  return (Object.keys(OPERATIONS) as OperationKey[]).map((key) => patternOf(key, paths[key] ?? OPERATIONS[key].path));
}

function patternOf(key: OperationKey, template: string) {
  const op = OPERATIONS[key];
  const names: string[] = [];
  const source = template
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
      names.push(m[1]!);
      return '([^/]+?)';
    })
    .join('');
  return { key, op, names, re: new RegExp(`^${source}/?$`) };
}

/**
 * The documented operation an entry exercises, judged by its URL (under one of the base URLs) and
 * its method; or why it is ignored.
 */
export function mapEntry(
  x: Pick<Observed, 'method' | 'url'>,
  bases: BaseUrls,
  paths?: Partial<Record<OperationKey, string>>,
): Mapped | { ignored: Ignored } {
  const u = parse(x.url);
  if (!u) return { ignored: 'not a URL' };
  const origin = u.origin.toLowerCase();
  let anyHost = false;
  let pathMatched = false;
  for (const p of paths ? patternsFor(paths) : PATTERNS) {
    // contactInfoBaseUrl: its own when the configuration sets one, else baseUrl.
    const url = p.op.base === 'contactInfoBaseUrl' ? (bases.contactInfoBaseUrl ?? bases.baseUrl) : bases[p.op.base];
    const base = url && normalBase(url);
    if (!base || base.origin !== origin) continue;
    anyHost = true;
    if (u.pathname !== base.prefix && !u.pathname.startsWith(base.prefix + '/')) continue;
    const m = p.re.exec(u.pathname.slice(base.prefix.length));
    if (!m) continue;
    pathMatched = true;
    if (p.op.method !== x.method) continue;
    const pathParams: Record<string, string> = {};
    p.names.forEach((n, i) => (pathParams[n] = decode(m[i + 1]!)));
    return { operation: p.key, pathParams, query: u.searchParams };
  }
  return { ignored: !anyHost ? 'other host' : pathMatched ? 'undocumented method' : 'not an API path' };
}

/**
 * The spec's distinctive paths, and the base URL each gives away: everything before the path.
 * customerId may be anything but a slash.
 */
const DISTINCTIVE: Array<{ base: BaseUrlKey; re: RegExp }> = [
  { base: 'baseUrl', re: /\/db-disclosures\/v1\/institution-(user-)?disclosures(\/[^/]*)?\/?$/ },
  { base: 'baseUrl', re: /\/customers\/[^/]+:contact-info\/?$/ },
  { base: 'authBaseUrl', re: /\/oauth2\/v1\/revoke\/?$/ },
  { base: 'transfersBaseUrl', re: /\/db-transfers\/v1\/transfers\/?$/ },
];

export interface Inference {
  bases: BaseUrls;
  /** One line per base URL: what was inferred from how many entries, and what else was seen. */
  notes: string[];
}

/**
 * Without a configuration: the base URLs inferred from the entries' paths. Where entries suggest
 * several, the most frequent wins and the others are named (their entries are then "other host").
 */
export function inferBaseUrls(xs: Array<Pick<Observed, 'url'>>): Inference {
  const seen: Record<BaseUrlKey, Map<string, number>> = {
    baseUrl: new Map(),
    authBaseUrl: new Map(),
    transfersBaseUrl: new Map(),
  };
  for (const x of xs) {
    const u = parse(x.url);
    if (!u) continue;
    for (const d of DISTINCTIVE) {
      const m = d.re.exec(u.pathname);
      if (!m) continue;
      const base = u.origin + u.pathname.slice(0, m.index);
      seen[d.base].set(base, (seen[d.base].get(base) ?? 0) + 1);
      break;
    }
  }
  const bases: BaseUrls = { baseUrl: undefined, authBaseUrl: undefined, transfersBaseUrl: undefined };
  const notes: string[] = [];
  for (const key of Object.keys(seen) as BaseUrlKey[]) {
    const ranked = [...seen[key].entries()].sort((a, b) => b[1] - a[1]);
    if (ranked.length === 0) {
      notes.push(`${key}: not inferred (no entry has its distinctive path)`);
      continue;
    }
    bases[key] = ranked[0]![0];
    const others = ranked.slice(1).map(([b, n]) => `${b} (${n})`);
    const [base, entries] = ranked[0]!;
    const also = others.length ? `; also seen, not judged: ${others.join(', ')}` : '';
    notes.push(`${key}: ${base} (inferred from ${entries} entr${entries === 1 ? 'y' : 'ies'})${also}`);
  }
  return { bases, notes };
}
