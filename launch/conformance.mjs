// npm run conformance: the main job (bin/conformance.ts), compiled (launch/compiled.mjs).
import { runCompiled } from './compiled.mjs';

await runCompiled('conformance');
