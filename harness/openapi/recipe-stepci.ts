import type { JsonObject } from './dialect';
import {
  CAPTURES,
  mapTemplates,
  type RecipePlan,
  type RecipeStep,
  SECRET_VARIABLES,
  stepPath,
  success,
} from './recipe-plan';

/**
 * A Step CI workflow of a recipe plan (harness/openapi/recipe-plan.ts): one test whose steps send every operation
 * in order, each to its own base URL, with its credentials as `${{ secrets.NAME }}` (given on the command line,
 * `stepci run workflow.yml -s bearerToken=$DBSI_BEARER_TOKEN …`, never written in the file), the test data
 * written out, the ids the target issued captured and carried forward, and a step that needs an id the target
 * did not show skipped by its `if`. `continueOnFail` keeps one failure from hiding the checks of the steps after
 * it. Checks: the success status the document gives (any 2xx where it says `2XX`), a JSON media type (compared
 * as a media type: any case, any parameter) and the document's schema, where the success answer has a body.
 */

/** A pattern that matches `type` as a media type: in any case, then the end or a parameter (`;charset=…`). */
export function mediaTypePattern(type: string): string {
  const letters = [...type].map((ch) =>
    /[a-z]/i.test(ch) ? `[${ch.toLowerCase()}${ch.toUpperCase()}]` : ch.replace(/[.+*?^$()[\]{}|\\/]/g, '\\$&'),
  );
  return `^\\s*${letters.join('')}\\s*(;|$)`;
}

const STEPCI_VARIABLE = (name: string): string => {
  if (name in SECRET_VARIABLES) return `\${{ secrets.${name} }}`;
  if (name in CAPTURES) return `\${{ captures.${name} }}`;
  if (name === '$uuid') return '${{ string.uuid | fake }}';
  // Step CI's faker gives a Date; its toString filter writes it (the format of this stamp: not shown).
  if (name === '$now') return '${{ date.recent | fake | toString }}';
  throw new Error(`unknown recipe variable ${name}`);
};

function httpOf(plan: RecipePlan, s: RecipeStep, doc30: JsonObject): JsonObject {
  const to = STEPCI_VARIABLE;
  const query = new URLSearchParams(s.query).toString();
  const url = `${plan.urls[s.base]}${stepPath(s, to)}${query ? `?${query}` : ''}`;
  const headers = mapTemplates(s.headers, to) as Record<string, string>;
  const http: JsonObject = { url, method: s.method, headers };
  if (s.auth.scheme === 'bearer') headers.Authorization = `Bearer ${String(mapTemplates(s.auth.token, to))}`;
  else
    http.auth = { basic: { username: mapTemplates(s.auth.username, to), password: mapTemplates(s.auth.password, to) } };
  if (s.body !== undefined) http.json = mapTemplates(s.body, to);
  if (s.capture?.from === 'created') http.captures = { [s.capture.name]: { jsonpath: `$.${s.capture.name}` } };
  // The id of the record on the created disclosure, whatever the order of the members: a regex on the body (a
  // JSONPath filter gives Step CI an array, which its `if` and its templates cannot read).
  if (s.capture?.from === 'listed')
    http.captures = {
      [s.capture.name]: {
        regex:
          '\\{(?=[^{}]*"institutionDisclosureId"\\s*:\\s*"${{ captures.institutionDisclosureId }}")' +
          '[^{}]*"institutionUserDisclosureId"\\s*:\\s*"([^"]*)"',
      },
    };
  const check: JsonObject = { status: s.status === '2XX' ? [{ gte: 200 }, { lte: 299 }] : s.status };
  if (s.schema) {
    check.headers = { 'Content-Type': [{ match: mediaTypePattern('application/json') }] };
    // The 3.0 rendering's schema (JSON Schema draft-07's subset, as Step CI's Ajv reads it).
    check.schema = success(doc30, s.operationId).schema;
  }
  http.check = check;
  return http;
}

/**
 * The workflow; `doc30` is the document's OpenAPI 3.0 rendering, whose component schemas (JSON Schema draft-07's
 * subset, as Step CI's Ajv reads it) the checks refer to.
 */
export function stepCiWorkflow(plan: RecipePlan, doc30: JsonObject): JsonObject {
  const schemas = (doc30.components as JsonObject).schemas as JsonObject;
  return {
    version: '1.1',
    name: `DBSI recipe: ${plan.name}`,
    config: { continueOnFail: true },
    components: { schemas },
    tests: {
      operations: {
        name: 'every operation, with its credentials, the test data and the ids carried forward',
        steps: plan.steps.map((s) => ({
          name: `${s.name}: ${s.why}`,
          // One capture: Step CI's filtrex takes `a and b` of two texts for an error, which it reads as true. The
          // last needed capture implies the others (the record's id is listed only for the created disclosure).
          ...(s.requires.length ? { if: `captures.${s.requires.at(-1)}` } : {}),
          http: httpOf(plan, s, doc30),
        })),
      },
    },
  };
}
