import { fileURLToPath, pathToFileURL } from 'node:url';

/** The spec, the only oracle: its file in this repository. */
export const SPEC_FILE = fileURLToPath(new URL('../spec/digital-banking-service-interface.md', import.meta.url));

/**
 * Where links to the spec's sections point: DBSI_SPEC_URL, else the spec file of this checkout (a
 * file: URL). The suite knows no published copy it could vouch for; a link to one nobody checked
 * could point at another text. Set DBSI_SPEC_URL to a published copy (the nightly workflow links the
 * file at the commit that ran) for reports read on other machines.
 */
export function specUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.DBSI_SPEC_URL || pathToFileURL(SPEC_FILE).href;
}
