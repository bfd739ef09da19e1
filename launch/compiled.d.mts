/** Types of launch/compiled.mjs. */
export function runCompiled(entry: 'conformance' | 'measured-run'): Promise<unknown>;
