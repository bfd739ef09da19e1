import { stringify } from 'yaml';
import type { JsonObject } from './dialect';
import { dreddFiles } from './recipe-dredd';
import { recipePlan } from './recipe-requests';
import { portmanFiles } from './recipe-portman';
import { stepCiWorkflow } from './recipe-stepci';
import { toOpenApi30 } from './renderings';

export const RECIPE_TOOLS = ['portman', 'stepci', 'dredd'] as const;
export type RecipeTool = (typeof RECIPE_TOOLS)[number];

/**
 * The document without the operations the recipe leaves out (a safety switch is off): Portman and Dredd send a
 * request of their own making for every operation of the document they are given.
 */
function only(doc: JsonObject, operationIds: Set<string>): JsonObject {
  const out = structuredClone(doc);
  const paths = out.paths as Record<string, Record<string, unknown>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const [key, op] of Object.entries(item))
      if (op && typeof op === 'object' && 'operationId' in op && !operationIds.has(String(op.operationId)))
        delete item[key];
    if (!Object.values(item).some((op) => op && typeof op === 'object' && 'operationId' in op)) delete paths[path];
  }
  return out;
}

/** The files of one tool's recipe (name → content), from the document and a configuration file's JSON. */
export function recipeFiles(tool: RecipeTool, doc: JsonObject, config: unknown, file: string): Record<string, string> {
  const plan = recipePlan(doc, config, file);
  const sent = plan.omitted.length ? only(doc, new Set(plan.steps.map((s) => s.operationId))) : doc;
  switch (tool) {
    case 'stepci':
      return {
        'workflow.yml': stringify(stepCiWorkflow(plan, toOpenApi30(doc)), {
          lineWidth: 0,
          aliasDuplicateObjects: false,
        }),
      };
    case 'portman':
      return portmanFiles(plan, sent);
    case 'dredd':
      return dreddFiles(plan, sent, file);
  }
}
