import type { OperationDef } from './operations-types';

/*
 * The authentication operation (8, token revocation) of the operations table: where it is sent and what the spec
 * documents about it, in the spec's words. A new operation of the area is one more entry here (CONTRIBUTING,
 * "A new operation").
 */

export const AUTHENTICATION_OPERATIONS = {
  revokeToken: {
    number: 8,
    area: 'authentication',
    name: 'Revoke a token',
    method: 'DELETE',
    base: 'authBaseUrl',
    path: '/oauth2/v1/revoke',
    section: '8. Revoke a token',
    mutates: 'tokenRevocation',
    documented: {
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
        {
          status: '401',
          description: '"The authentication request is unsuccessful".',
          schema: 'token-revocation-error',
        },
        {
          status: '500',
          description: '"An unexpected fault occurs while processing".',
          schema: 'token-revocation-error',
        },
      ],
    },
  },
} satisfies Record<string, OperationDef>;
