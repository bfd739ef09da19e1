import { stringify } from 'yaml';
import type { JsonObject } from './dialect';
import { dreddFiles } from './recipe-dredd';
import { recipePlan } from './recipe-plan';
import { portmanFiles } from './recipe-portman';
import { stepCiWorkflow } from './recipe-stepci';
import { toOpenApi30 } from './renderings';

export const RECIPE_TOOLS = ['portman', 'stepci', 'dredd'] as const;
export type RecipeTool = (typeof RECIPE_TOOLS)[number];

/** The files of one tool's recipe (name → content), from the document and a configuration file's JSON. */
export function recipeFiles(tool: RecipeTool, doc: JsonObject, config: unknown, file: string): Record<string, string> {
  const plan = recipePlan(doc, config, file);
  const json = (x: unknown) => `${JSON.stringify(x, null, 2)}\n`;
  switch (tool) {
    case 'stepci':
      return {
        'workflow.yml': stringify(stepCiWorkflow(plan, toOpenApi30(doc)), {
          lineWidth: 0,
          aliasDuplicateObjects: false,
        }),
      };
    case 'portman':
      return portmanFiles(plan, doc);
    case 'dredd':
      return dreddFiles(plan, doc, file);
    default:
      throw new Error(`${tool}: not rendered yet ${json(1)}`);
  }
}
