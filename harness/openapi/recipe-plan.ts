import type { BaseUrlKey } from '../operations';
import type { JsonObject } from './dialect';
import { RenderingError, type TargetBaseUrls } from './renderings';

/**
 * The requests a tool's recipe sends (Portman + newman, Step CI, Dredd: harness/openapi/recipe-*.ts), from a
 * target configuration: every operation once, with the credentials of its security scheme, the configuration's
 * test data and the ids the target issued carried forward. Values are templates: `{{name}}` names a variable
 * of VARIABLES (a secret read from the environment, an id captured from an earlier answer, or a value made at
 * run time); each renderer writes it in its tool's syntax. No secret value is ever read here: a configuration's
 * credentials are never copied, only the name of the variable that carries them.
 *
 * This file holds the plan's shape and its variables, which the renderers read; `recipePlan`, the requests a
 * configuration gives, is recipe-requests.ts.
 */

/** The secrets a recipe sends, each by the environment variable the suite reads it from (harness/config.ts). */
export const SECRET_VARIABLES = {
  bearerToken: 'DBSI_BEARER_TOKEN',
  transfersToken: 'DBSI_TRANSFERS_TOKEN',
  revocationClientId: 'DBSI_REVOCATION_CLIENT_ID',
  revocationClientSecret: 'DBSI_REVOCATION_CLIENT_SECRET',
  revocationPassword: 'DBSI_REVOCATION_PASSWORD',
  revocationRefreshToken: 'DBSI_REVOCATION_REFRESH_TOKEN',
} as const;
export type SecretName = keyof typeof SECRET_VARIABLES;

/** Ids the target issues, captured from an answer and sent in later requests. */
export const CAPTURES = {
  institutionDisclosureId: 'the institutionDisclosureId of the disclosure the recipe created (operation 2)',
  institutionUserDisclosureId:
    "the institutionUserDisclosureId the list of the user's records (operation 4) shows for the record the " +
    'recipe created (operation 5) on that disclosure',
} as const;
export type CaptureName = keyof typeof CAPTURES;

/** Values made when the request is sent. */
export const DYNAMIC = { $uuid: 'a new UUID for each request', $now: 'the current date-time' } as const;

export const VARIABLES = [...Object.keys(SECRET_VARIABLES), ...Object.keys(CAPTURES), ...Object.keys(DYNAMIC)];

/** `{{name}}`, the one template syntax of a plan. */
export const ref = (name: SecretName | CaptureName | keyof typeof DYNAMIC): string => `{{${name}}}`;

export type RecipeAuth =
  | { scheme: 'bearer'; token: string; securityScheme: string }
  | { scheme: 'basic'; username: string; password: string; securityScheme: string };

export interface RecipeStep {
  /** Unique in the plan; the operationId, or the operationId and `Again` for a repeated request. */
  name: string;
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  base: BaseUrlKey;
  /** The spec's path, with `{parameter}` placeholders. */
  path: string;
  pathParams: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  auth: RecipeAuth;
  body?: unknown;
  /** The success status the document gives the operation: one code, or any 2xx where it says `2XX`. */
  status: number | '2XX';
  /** The document's schema of the success body (referring to its components), when it gives one. */
  schema?: unknown;
  capture?: { name: CaptureName; from: 'created' | 'listed' };
  /** Captures this request needs: without one of them it is skipped (said why), never sent with a made-up id. */
  requires: CaptureName[];
  /** Why the request is there, and what a skip means. */
  why: string;
}

export interface RecipePlan {
  /** The configuration's name, and its base URLs (not secrets). */
  name: string;
  urls: TargetBaseUrls;
  callingAppId: string;
  steps: RecipeStep[];
  /** Operations left out: the configuration's safety switch for them is off (`allow`, as the suite reads it). */
  omitted: { operationId: string; why: string }[];
}

export type Dict = Record<string, unknown>;
export const obj = (v: unknown): Dict => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Dict) : {});

/** The document's success status and body schema of an operation (`2XX` where it shows no code). */
export function success(doc: JsonObject, operationId: string): { status: number | '2XX'; schema?: unknown } {
  for (const item of Object.values(doc.paths as Record<string, Dict>)) {
    for (const op of Object.values(item).map(obj)) {
      if (op.operationId !== operationId) continue;
      const responses = obj(op.responses);
      const key = Object.keys(responses).find((k) => /^2/.test(k));
      if (!key) throw new RenderingError(`${operationId}: the document gives no success response`);
      const schema = obj(obj(obj(responses[key]).content)['application/json']).schema;
      return { status: key === '2XX' ? '2XX' : Number(key), ...(schema ? { schema } : {}) };
    }
  }
  throw new RenderingError(`${operationId}: not in the document`);
}

/** Every `{{name}}` of a value, and the value with each replaced by `to(name)`. */
export function mapTemplates(value: unknown, to: (name: string) => unknown): unknown {
  if (typeof value === 'string') {
    const whole = /^\{\{([$\w]+)\}\}$/.exec(value);
    if (whole) return to(whole[1]!);
    return value.replace(/\{\{([$\w]+)\}\}/g, (_, n: string) => String(to(n)));
  }
  if (Array.isArray(value)) return value.map((v) => mapTemplates(v, to));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapTemplates(v, to)]));
  return value;
}

/** The path of a step with its parameters: literal test data URL-encoded, templates as `to` writes them. */
export function stepPath(s: RecipeStep, to: (name: string) => string): string {
  return s.path.replace(/\{(\w+)\}/g, (_, p: string) => {
    const v = s.pathParams[p] ?? '';
    return /^\{\{[$\w]+\}\}$/.test(v) ? String(mapTemplates(v, to)) : encodeURIComponent(v);
  });
}
