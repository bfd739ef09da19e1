import { fileURLToPath } from 'node:url';

/** The spec, the only oracle: its file in this repository. */
export const SPEC_FILE = fileURLToPath(new URL('../spec/digital-banking-service-interface.md', import.meta.url));

const DEFAULT_SPEC_URL = 'https://github.com/dbsi-conformance/dbsi-conformance/blob/main/spec/digital-banking-service-interface.md';

/** Where links to the spec's sections point: DBSI_SPEC_URL, else the spec on the project's GitHub. */
export function specUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.DBSI_SPEC_URL ?? DEFAULT_SPEC_URL;
}
