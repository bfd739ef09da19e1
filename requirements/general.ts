import type { Requirement } from './types';

const NOT_SHOWN =
  'The spec states nothing a target could be held to here; the suite ' +
  'sends no request for it and requires nothing.';

/**
 * Conventions and statements that concern the interface as a whole, and the places the spec leaves
 * "not shown" outside the four areas' own files, listed so the evidence shows they were considered.
 * (Operation 11 and the contact-info statements live in contact-info.ts; the disclosures errors in
 * disclosures.ts.)
 */
export const GENERAL_REQUIREMENTS: Requirement[] = [
  {
    id: 'CLIENT-REQUEST-AS-DOCUMENTED',
    section: 'Endpoints',
    grade: 'SHOULD',
    operations: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
    statement:
      'Each operation documents its request: the headers the spec marks required (Required "yes", ' +
      '"required", the "Disclosures: headers sent with every operation") and the body (Token request body, ' +
      'Transfer, Contact update request, the disclosures bodies). In recorded traffic the client is not the ' +
      "suite: a request without a required header (Authorization aside: the target's rules judge requests " +
      'without credentials), or with a body that is not of the documented shape, is worth knowing. It is no ' +
      'verdict on the target: a warning, a failure only under --strict.',
    judgedInTraffic:
      'The suite is the client of an active run: its requests are built from the same documentation ' +
      '(proved by the request self-tests), except where a test breaks a rule on purpose.',
  },
  {
    id: 'CONV-JSON-BODIES',
    section: 'What the service does',
    grade: 'MUST',
    operations: [1, 2, 3, 4, 8, 9],
    statement: '"Bodies are JSON objects." A response body documented as ' + 'an object parses as a JSON object.',
  },
  {
    id: 'CONV-JSON-MEDIA-TYPE',
    section: 'What the service does',
    grade: 'MUST',
    operations: [1, 2, 3, 4, 8, 9],
    statement:
      '"Bodies are JSON objects." A response body documented as an object is labelled as JSON: its Content-Type ' +
      'is application/json or a +json type (any parameters, such as charset, and any letter case). An answer ' +
      'with no Content-Type is not judged.',
  },

  // Not shown: other areas, events, limits, token issuance, versioning policy.
  {
    id: 'GEN-OTHER-AREAS-NOT-SHOWN',
    section: 'What the service does',
    grade: 'MUST',
    operations: [],
    statement:
      'The service is divided into these areas: Accounts, Update contact info, Money Movement, Disclosures, ' +
      'Banking Images, Authentication, Alerts, Legacy Authentication, Reset Password, E-Statements, Experience ' +
      'Group, Banking, Customer Information, E-Statement Reports. "Operations of the other areas: not shown."',
    notTestable:
      `Only Disclosures, Authentication (token revocation), Money Movement (transfer ` +
      `creation) and Update contact info are specified. ${NOT_SHOWN}`,
  },
  {
    id: 'GEN-EVENTS-NOT-SHOWN',
    section: 'Events',
    grade: 'MUST',
    operations: [],
    statement: '"Events, callbacks or notifications sent by ' + 'the service: not shown."',
    notTestable: `No event, callback or notification is ` + `documented. ${NOT_SHOWN}`,
  },
  {
    id: 'GEN-LIMITS-NOT-SHOWN',
    section: 'Limits',
    grade: 'MUST',
    operations: [],
    statement: '"Rate limits, size limits, time-outs and token ' + 'lifetimes: not shown."',
    notTestable:
      `No limit is documented. The suite only respects the limits configured for the target ` +
      `(http.rateLimitPerSecond, http.concurrency, http.timeoutMs) and reports a 429 or a time-out as "could ` +
      `not test", never as non-conformance.`,
  },
  {
    id: 'GEN-VERSION-POLICY-NOT-SHOWN',
    section: 'Versioning',
    grade: 'MUST',
    operations: [],
    statement:
      '"Version policy, deprecation and compatibility rules: not shown." (The v1 segment of the disclosures, ' +
      'revocation and transfer paths is checked by the requests of those operations.)',
    notTestable: `No version negotiation, deprecation signal or ` + `compatibility rule is documented. ${NOT_SHOWN}`,
  },
  {
    id: 'GEN-TOKEN-ISSUANCE-NOT-SHOWN',
    section: 'Authentication',
    grade: 'MUST',
    operations: [],
    statement:
      '"The operation that issues tokens (path, body, response): not shown." The disclosures operations use ' +
      '"a bearer access token obtained from the Authentication API"; the transfer operation an OAuth2 access token.',
    notTestable:
      'The suite cannot obtain a token from the target: the tokens are supplied in the configuration ' +
      '(credentials.bearerToken, credentials.transfersToken, or the DBSI_* environment variables).',
  },
  {
    id: 'GEN-TOKEN-EXPIRY-UNITS-NOT-SHOWN',
    section: 'Authentication',
    grade: 'MUST',
    operations: [8],
    statement:
      '"Units and values of expires_in and refresh_token_expires_in: not shown." Only ' +
      'their type (string) is documented, in the Token record.',
    notTestable:
      'No unit (seconds, minutes, a date) and no range is documented, so any string ' +
      'value is accepted; the type is checked with the Token record.',
  },
];
