// `npm test`'s first line (its `pretest` script, issue 34): that it runs, what, and how long it usually takes,
// so that a contributor on a busy laptop knows within a second that minutes of silence are expected. The
// figures are docs/benchmarks.md's; selftest/test-banner.test.ts keeps this line and the README in step.
export const USUAL = 'about 15 min on two cores, longer on a busy machine';

export function bannerLine() {
  return `npm test: type check, format check, then the self-tests (vitest, two projects); usually ${USUAL}.`;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) console.log(bannerLine());
