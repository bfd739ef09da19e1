import { DISCLOSURES_DOCUMENTATION } from './operations-documented-disclosures';
import type { OperationKey } from './operations';

/**
 * What the spec documents about each operation of `OPERATIONS` beyond its method and path: headers and
 * query parameters (with the required flag where the spec states one), the request body, the
 * responses with their schemas, and the authentication scheme. Written once, here, in the spec's
 * words; the OpenAPI generator (harness/openapi/) and the self-tests read it.
 */

export interface DocumentedParameter {
  /** As the spec writes it (header names differ in case between areas). */
  name: string;
  in: 'header' | 'query' | 'path';
  /**
   * true / false where the spec states it ("required", "Required: yes/no", "headers sent with every
   * operation"); absent where it is not stated. A condition ("mandatory for business banking
   * requests") is not a flag: it is absent and the condition is in the description.
   */
  required?: boolean;
  /** The spec's words about it. */
  description: string;
  /** Its value, where the spec states more than "string" (default: a string). */
  schema?: Record<string, unknown>;
}

export interface DocumentedBody {
  /** A schema under schemas/, by name. */
  schema: string;
  /**
   * Whether the schema's top-level `required` list is what the spec requires. false where the spec
   * lists the members without saying which are required: the schema's list is then what the suite
   * always sends, and the contract requires none of them.
   */
  requiredMembersStated: boolean;
}

export interface DocumentedResponse {
  /** An exact status, a range where the success status is not shown ('2XX'), or 'default' where errors are not shown.
   * */
  status: '200' | '204' | '400' | '401' | '403' | '500' | '2XX' | 'default';
  /** The spec's words. */
  description: string;
  /** The body's schema under schemas/ (absent: no content, or a body the spec does not describe). */
  schema?: string;
  /** The list envelope's array member and the schema of each element, where the suite checks elements separately. */
  elements?: { member: string; schema: string };
}

/** The authentication schemes of the spec's "Authentication" table. */
export const SECURITY_SCHEMES = {
  disclosuresBearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Disclosures (all): "Authorization header with a bearer access token obtained from the ' +
      'Authentication API". The operation that issues tokens (path, body, response): not shown.',
  },
  transfersBearer: {
    type: 'http',
    scheme: 'bearer',
    description:
      'Create a transfer: "Authorization header with an OAuth2 access token". "An unauthenticated transfer ' +
      'request returns 401 and an unauthorized one 403." The OAuth2 flows and the operation that issues ' +
      'tokens: not shown.',
  },
  revocationBasic: {
    type: 'http',
    scheme: 'basic',
    description:
      'Revoke a token: "Authorization header with HTTP Basic authentication: the word Basic, a space, then ' +
      'the base64 encoding of the shared key, a colon and the secret key; shared key and secret key are issued ' +
      'when the application is registered". "The unsuccessful authentication of a token request returns status 401."',
  },
} as const;

export type SecuritySchemeKey = keyof typeof SECURITY_SCHEMES;

export interface OperationDocumentation {
  /** The Authentication table's scheme, or the spec's words where it shows none. */
  security: SecuritySchemeKey | { notShown: string };
  parameters: DocumentedParameter[];
  body?: DocumentedBody;
  responses: DocumentedResponse[];
  /** What distinguishes this form of an operation the spec documents in two forms. */
  note?: string;
}

export const OPERATION_DOCUMENTATION: Record<OperationKey, OperationDocumentation> = {
  ...DISCLOSURES_DOCUMENTATION,
  revokeToken: {
    security: 'revocationBasic',
    parameters: [
      { name: 'Accept', in: 'header', required: false, description: 'Type string, "Required: no".' },
      {
        name: 'institutionId',
        in: 'header',
        required: true,
        description: 'Type string, "Required: yes", "Numeric unique ' + 'identifier of the FI".',
        schema: { type: 'string', pattern: '^[0-9]+$' },
      },
      {
        name: 'transactionId',
        in: 'header',
        required: true,
        description: 'Type string, "Required: yes", "Unique ' + 'identifier for this request".',
      },
      {
        name: 'Content-Type',
        in: 'header',
        required: true,
        description: 'Type string, "Required: yes", "Request ' + 'content type".',
      },
      {
        name: 'Authorization',
        in: 'header',
        required: true,
        description: 'Type string, "Required: yes", "See ' + 'Authentication" (HTTP Basic).',
      },
    ],
    body: { schema: 'token-request', requiredMembersStated: true },
    responses: [
      {
        status: '200',
        description:
          '"Response 200: Token record (the response is described with ' + 'the words token successfully created)."',
        schema: 'token-record',
      },
      {
        status: '400',
        description:
          '"The request does not match the requirements of the specification". "An additional error ' +
          'shape of code and message (both string) is also shown with this operation."',
        schema: 'token-revocation-error',
      },
      { status: '401', description: '"The authentication request is unsuccessful".', schema: 'token-revocation-error' },
      {
        status: '500',
        description: '"An unexpected fault occurs while processing".',
        schema: 'token-revocation-error',
      },
    ],
  },
  createTransfer: {
    security: 'transfersBearer',
    parameters: [
      { name: 'Authorization', in: 'header', required: true, description: '"required; an OAuth2 access token".' },
      {
        name: 'transactionId',
        in: 'header',
        required: true,
        description: '"required; a unique identifier generated ' + 'for each request".',
      },
      {
        name: 'Accept',
        in: 'header',
        description: '"the request also carries Accept and Content-Type ' + 'with the value application/json".',
      },
      {
        name: 'Content-Type',
        in: 'header',
        description: '"the request also carries Accept and Content-Type ' + 'with the value application/json".',
      },
    ],
    body: { schema: 'transfer', requiredMembersStated: true },
    responses: [
      { status: '200', description: '"Response 200: Transfer object."', schema: 'transfer' },
      {
        status: '400',
        description:
          '"Client error". "The conditions that lead to each status, the ' +
          'values of errorCode and code …: not shown."',
        schema: 'transfer-error',
      },
      {
        status: '401',
        description: '"Authentication error"; "an unauthenticated ' + 'transfer request returns 401".',
        schema: 'transfer-error',
      },
      { status: '403', description: '"Authorization error"; "an unauthorized one 403".', schema: 'transfer-error' },
      { status: '500', description: '"Server error".', schema: 'transfer-error' },
    ],
  },
  updateContactInfo: {
    security: {
      notShown:
        '"Authentication of the contact-info operations: not shown." No scheme is ' +
        'documented, so none is declared here (not even "none").',
    },
    parameters: [{ name: 'customerId', in: 'path', required: true, description: '"Path parameter: customerId."' }],
    body: { schema: 'contact-update-request', requiredMembersStated: true },
    responses: [
      { status: '204', description: '"Response: 204, no content, on success."' },
      {
        status: 'default',
        description: '"Errors of the contact update operation: not shown." No ' + 'error status or body is documented.',
      },
    ],
  },
};
