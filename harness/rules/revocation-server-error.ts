import { json_object_body, schema_conformance } from '../checks';
import type { Seen, Verifier } from './exchange';

/**
 * OP8-ERROR-SHAPE on a 500: the Errors table of token revocation gives the 500 row the body of the 400 row ("same"):
 * the token error record, or the additional code and message shape, a JSON object ("Bodies are JSON objects"). A
 * 500, whatever led to it (the suite provokes none: OP8-500-NOT-PROVOKED), is held to it; the 400 and 401 bodies are
 * judged in revocation.ts.
 */
export function revocationServerError(s: Seen, v: Verifier): void {
  if (s.x.status !== 500) return;
  v.verify('CONV-JSON-BODIES', json_object_body(s.res));
  v.verify('OP8-ERROR-SHAPE', schema_conformance(s.res, 'token-revocation-error'));
}
