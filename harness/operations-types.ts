import type { Area, SafetySwitch } from './model';

/*
 * The shape of an entry of the operations table (harness/operations.ts gathers each area's
 * harness/operations-<area>.ts): where it is sent, and what the spec documents about it beyond its method and
 * path (headers and query parameters, with the required flag where the spec states one; the request body; the
 * responses with their schemas; the authentication scheme), in the spec's words.
 */

/** Which configured base URL an operation's path is appended to. */
export type BaseUrlKey = 'baseUrl' | 'authBaseUrl' | 'transfersBaseUrl';
/**
 * An operation's base: one of the three, or contactInfoBaseUrl (optional in the configuration, default
 * baseUrl: a gateway may expose the contact-info area under a prefix of its own).
 */
export type OperationBaseKey = BaseUrlKey | 'contactInfoBaseUrl';

export interface OperationDef {
  /** The number of the operation in the spec's "Endpoints" section. */
  number: number;
  area: Area;
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  base: OperationBaseKey;
  /** Path template as the spec writes it; {name} segments are path parameters. */
  path: string;
  /** Spec section heading (anchor derived from it). */
  section: string;
  /** The safety switch a request of this operation needs, if it changes real things. */
  mutates?: SafetySwitch;
  /** What the spec documents about it beyond its method and path (the OpenAPI generator and the self-tests read it). */
  documented: OperationDocumentation;
}

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
