// The bench's measured run (bench/measured-run.ts), compiled as npm run conformance runs the main job.
import { runCompiled } from './compiled.mjs';

await runCompiled('measured-run');
