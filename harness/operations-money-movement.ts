import type { OperationDef } from './operations-types';

/*
 * The money-movement operation (9, create a transfer) of the operations table: where it is sent and what the spec
 * documents about it, in the spec's words. A new operation of the area is one more entry here (CONTRIBUTING,
 * "A new operation").
 */

export const MONEY_MOVEMENT_OPERATIONS = {
  createTransfer: {
    number: 9,
    area: 'money-movement',
    name: 'Create a transfer',
    method: 'POST',
    base: 'transfersBaseUrl',
    path: '/db-transfers/v1/transfers',
    section: '9. Create a transfer',
    mutates: 'moneyMovement',
    documented: {
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
  },
} satisfies Record<string, OperationDef>;
