/** Types of launch/build.mjs (plain JavaScript: it runs before anything is compiled). */
export const ROOT: string;
export const DIST: string;
export const ENTRIES: { conformance: string; 'measured-run': string };
/** The current build's folder in `dist` (default DIST), or undefined when none is current. */
export function currentBuild(dist?: string): string | undefined;
/** Build into a new folder of `dist` (default DIST) and name it current; resolves to that folder. */
export function build(dist?: string): Promise<string>;
