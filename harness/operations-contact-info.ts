import type { OperationDef } from './operations-types';

/*
 * The contact-info operation (10, update contact information) of the operations table: where it is sent and
 * what the spec documents about it, in the spec's words. A new operation of the area is one more entry here
 * (CONTRIBUTING, "A new operation").
 */

export const CONTACT_INFO_OPERATIONS = {
  updateContactInfo: {
    number: 10,
    area: 'contact-info',
    name: 'Update contact information',
    method: 'PUT',
    base: 'contactInfoBaseUrl',
    path: '/customers/{customerId}:contact-info',
    section: '10. Update contact information',
    mutates: 'contactUpdate',
    documented: {
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
          description:
            '"Errors of the contact update operation: not shown." No ' + 'error status or body is documented.',
        },
      ],
    },
  },
} satisfies Record<string, OperationDef>;
