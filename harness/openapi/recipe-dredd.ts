import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JsonObject } from './dialect';
import { CAPTURES, type RecipePlan, SECRET_VARIABLES } from './recipe-plan';
import { forTarget, toOpenApi30 } from './renderings';

/** The hooks every recipe's hook file carries after its RECIPE (and that `--hookfiles` can load alone). */
export const DREDD_HOOKS_FILE = fileURLToPath(new URL('../../docs/dredd-hooks.cjs', import.meta.url));

/**
 * What Dredd needs for a recipe plan: the document for the target (one server, each path under its base URL, in
 * OpenAPI 3.0) and a hook file, `const RECIPE = …;` (the plan: no secret, only the names of the environment
 * variables that carry them) followed by docs/dredd-hooks.cjs. Dredd sends the transactions in the document's
 * order (the list of a user's records before the create): the hooks send, themselves, the create again and the
 * list before the change by id (`dredd.before`), and delete the record again when the list showed no id
 * (`dredd.cleanup`).
 */
export function dreddFiles(plan: RecipePlan, doc: JsonObject, file: string): Record<string, string> {
  const recipe = {
    ...plan,
    secrets: SECRET_VARIABLES,
    captures: Object.keys(CAPTURES),
    dredd: {
      before: { changeUserDisclosureById: ['createUserDisclosureAgain', 'listUserDisclosures'] },
      cleanup: { changeUserDisclosureById: ['deleteUserDisclosure'] },
    },
  };
  const header =
    `// Dredd hooks of the recipe for ${JSON.stringify(plan.name)}, written by npm run recipe -- --tool dredd.\n` +
    '// No secret: each is read, when Dredd runs, from the environment variable RECIPE.secrets names.\n' +
    `const RECIPE = ${JSON.stringify(recipe, null, 2)};\n\n`;
  const examples: Record<string, string> = {};
  for (const s of plan.steps) for (const [k, v] of Object.entries(s.pathParams)) if (!/\{\{/.test(v)) examples[k] = v;
  return {
    'dbsi.openapi30.json': `${JSON.stringify(toOpenApi30(forTarget(doc, plan.urls, file, examples)), null, 2)}\n`,
    'dredd-hooks.cjs': header + readFileSync(DREDD_HOOKS_FILE, 'utf8'),
  };
}
