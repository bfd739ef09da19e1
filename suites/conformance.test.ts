import { registerAreas } from './_register';
import { registerRunLogJudge } from './_run-log';
import { FEATURES_BY_AREA } from '.';

/**
 * The one vitest file of a conformance run. The areas' cases live in suites/<area>/<operation>.ts;
 * the run's selected areas are registered here, one describe block per area, so that independent
 * cases of every area run concurrently in one worker under one connection limit.
 */
registerAreas(FEATURES_BY_AREA);
// After every case: the run's whole log judged the way a capture is (issue 32).
registerRunLogJudge();
