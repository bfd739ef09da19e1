import type { Exchange } from '../model';
import type { OperationKey } from '../operations';

/**
 * The run's log entry and the answer type (issue 32): below both the HTTP client (harness/http/, which
 * writes entries) and the rules (harness/rules/, harness/checks/, which read them), so that neither
 * imports the other. Both sources give the same shape: a capture (harness/traffic/capture.ts) and an
 * active run's client, so a rule never knows which source the exchange came from. The request is in
 * clear, in memory only: everything written goes through the Redactor first.
 */

/** An answer as the checks read it: the status, headers and body, parsed, with its redacted record. */
export interface HttpResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  truncated: boolean;
  /** The parsed JSON body, or undefined when the body is empty or not JSON (see jsonError). */
  json: unknown;
  jsonError?: string;
  /** The body is JSON nested deeper than the suite reads (harness/json-depth.ts): no check can judge it. */
  tooDeep?: boolean;
  /** The redacted record of the exchange, as reports show it. */
  exchange: Exchange;
  /**
   * The exchange as the rules read it: the request in clear, in memory only, never enumerated (so never
   * written). Set by the client for every answered request of a documented operation.
   */
  readonly logged?: Logged;
}

/**
 * One entry of a capture as the judge reads it: the request and, where there was one, the answer,
 * in clear (in memory only: everything written goes through the Redactor first).
 */
export interface Observed {
  /** 1-based position in the capture (the entries are the time-ordered sequence). */
  index: number;
  /** The start, to the precision the capture gives (a millisecond in browsers' captures; finer in the recorder's). */
  startMs: number;
  /** The precision of startMs: the true start lies in [startMs, startMs + startPrecisionMs). */
  startPrecisionMs: number;
  /** When the answer was complete (start + time); equal to start when the capture does not say. */
  endMs: number;
  startedAt: string;
  durationMs: number;
  method: string;
  url: string;
  /** Headers as captured (names as written: HTTP/2 lower-case or HTTP/1.1 case). */
  requestHeaders: Record<string, string>;
  requestBody?: string;
  /** 0: no answer (aborted, blocked, cut off); else the status. */
  status: number;
  responseHeaders: Record<string, string>;
  responseBody: string;
  /** Why there was no answer (Chrome's _error), when the capture says. */
  abortReason?: string;
  /** What the capture tells of the request's credentials (see credentialOf). */
  credential?: Credential;
}

/**
 * The request's credentials as far as the capture tells them: which one (a label: equal labels, the
 * same credential) and its shape. In a browser's capture the Authorization value is there; the
 * recorder writes it redacted and adds this as the entry's "_dbsiCredential" (never the secret).
 */
export interface Credential {
  /** Equal for the same credential within one capture; undefined when the capture cannot tell. */
  label?: string;
  scheme: string;
  /** For Basic: the value decodes to a non-empty shared key, a colon and a non-empty secret key; undefined when it
   * cannot be told. */
  wellFormedBasic?: boolean;
}

export function credentialOf(authorization: string): Credential {
  const m = /^(\S+)(?:\s+(.*))?$/.exec(authorization.trim());
  const scheme = (m?.[1] ?? '').toLowerCase();
  const value = (m?.[2] ?? '').trim();
  if (value.includes('[REDACTED]')) return { scheme };
  let wellFormedBasic: boolean | undefined;
  if (scheme === 'basic') {
    const pair = /^[A-Za-z0-9+/=]+$/.test(value) ? Buffer.from(value, 'base64').toString('utf8') : '';
    const colon = pair.indexOf(':');
    wellFormedBasic = colon > 0 && colon < pair.length - 1;
  }
  return { label: authorization.trim(), scheme, wellFormedBasic };
}

/** A header's value whatever the case of its name (HTTP/2 captures write every name in lower case). */
export function header(h: Record<string, string>, name: string): string | undefined {
  const n = name.toLowerCase();
  for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === n) return v;
  return undefined;
}

/** An entry mapped to a documented operation. */
export interface Mapped {
  operation: OperationKey;
  /** Path parameters, percent-decoded. */
  pathParams: Record<string, string>;
  query: URLSearchParams;
}

/** What a rule reads of one exchange: the entry, the answer as the checks read it, and the operation. */
export interface Seen {
  x: Observed;
  res: HttpResult;
  mapped: Mapped;
  /** The log kept Authorization headers (a sanitized browser export drops them all). */
  keepsAuthorization: boolean;
  /**
   * What the log knows of the request's credentials beyond their shape: 'configured', the operator's
   * credentials exactly as configured (a refusal breaks the operation's rule; harness/setup/proof.ts
   * re-grades it when nothing proved them); 'made-up', credentials the target never issued; 'unauthorized',
   * the operator's valid token configured as lacking authorization for the operation
   * (credentials.transfersForbiddenToken); 'none', a request the log knows it sent without an Authorization
   * header or any configured credential.
   * A capture cannot tell any of them (undefined): a refusal there may be about the credentials, and what a
   * browser sent may not be what reached the target.
   */
  authority?: Authority;
  /**
   * The active run sent it at a path other than the operation's documented one (a probe, e.g. with a version
   * segment): the operation is known only because the driver named it. A capture maps an exchange to an
   * operation by the documented paths (harness/traffic/operation-map.ts), so it does not hold this one.
   */
  undocumentedPath?: true;
}

/**
 * What an active run knows of the state before its log begins, from its configuration rather than from an
 * exchange (a capture knows none of it): the phone number on record of a customer the log shows no accepted
 * update of yet, with where the run has it from (the configuration key).
 */
export interface Known {
  phonesOnRecord?: Record<string, { number: string; from: string }>;
  /** The prefix of the names the run's tests give the institution disclosures they create (harness/rules/
   * institution-others.ts): their writes may be missing from the log judged. */
  runNamePrefix?: string;
}

export type Authority = 'configured' | 'made-up' | 'unauthorized' | 'none';

/** An exchange of the log: what a rule reads of it, except whether the log keeps credentials (Seen). */
export type Logged = Omit<Seen, 'keepsAuthorization'>;

/** The entries in the order their requests started (the order the state rules read a log in), ties by index. */
export const inStartOrder = <S extends Pick<Seen, 'x'>>(log: readonly S[]): S[] =>
  [...log].sort((a, b) => a.x.startMs - b.x.startMs || a.x.index - b.x.index);

/** What the client sent, in clear, and when (milliseconds since the epoch). */
export interface Sent {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  startMs: number;
  endMs: number;
}
