import { json_media_type } from '../checks';
import type { Seen, Verifier } from './exchange';

/**
 * CONV-JSON-MEDIA-TYPE, wherever CONV-JSON-BODIES is in play: every rule that holds an answer's body to be a JSON
 * object (and finds it is one) also holds its label to be JSON. Written once for every operation: the exchange
 * rules of the table are wrapped (exchange-rules.ts), so a new operation gets it without an edit here.
 */
export function labelledAsJson(rule: (s: Seen, v: Verifier) => void): (s: Seen, v: Verifier) => void {
  return (s, v) =>
    rule(s, {
      verify(requirement, verdict) {
        const held = v.verify(requirement, verdict);
        if (requirement === 'CONV-JSON-BODIES' && verdict.outcome === 'passed')
          v.verify('CONV-JSON-MEDIA-TYPE', json_media_type(s.res));
        return held;
      },
    });
}
