import type { DocumentedParameter, DocumentedResponse, OperationDef, OperationDocumentation } from './operations-types';

/*
 * The disclosures operations (1 to 7) of the operations table: where each is sent and what the spec documents
 * about it, in the spec's words. A new operation of the area is one more entry here (CONTRIBUTING, "A new
 * operation").
 */

const D = '/db-disclosures/v1';
const EVERY = 'One of the "Disclosures: headers sent with every operation".';
const DISCLOSURES_HEADERS: DocumentedParameter[] = [
  {
    name: 'Authorization',
    in: 'header',
    required: true,
    description: `${EVERY} "Bearer access token obtained from ` + `the Authentication API".`,
  },
  {
    name: 'TransactionId',
    in: 'header',
    required: true,
    description: `${EVERY} "UUID string, a unique identifier ` + `for this request".`,
    schema: { type: 'string', format: 'uuid' },
  },
  {
    name: 'callingAppId',
    in: 'header',
    required: true,
    description: `${EVERY} "Identifier of the application ` + `that made the request".`,
  },
];
const INSTITUTION_DISCLOSURE_HEADERS: DocumentedParameter[] = [
  {
    name: 'InstitutionId',
    in: 'header',
    description:
      '"identifier of the FI". The same value as the body member institutionId; ' +
      '"which of the two wins when they differ: not shown".',
  },
  {
    name: 'InstitutionDisclosureName',
    in: 'header',
    description:
      '"name of the disclosure". The same value as the body member ' +
      'institutionDisclosureName; "which of the two wins when they differ: not shown".',
  },
  {
    name: 'InstitutionDisclosureStatus',
    in: 'header',
    description:
      '"true or false". The same value as the body member ' +
      'institutionDisclosureStatus; "which of the two wins when they differ: not shown".',
    schema: { type: 'string', enum: ['true', 'false'] },
  },
];
const INSTITUTION_CUSTOMER_ID: DocumentedParameter = {
  name: 'InstitutionCustomerId',
  in: 'query',
  description:
    '"the identifier of the user the recipient is associated with; ' + 'mandatory for business banking requests".',
};
const BY_ID =
  'The second form of the operation: "Path parameter ' +
  'institutionUserDisclosureId: used only with the second form."';
const USER_DISCLOSURE_ID: DocumentedParameter = {
  name: 'institutionUserDisclosureId',
  in: 'path',
  required: true,
  description:
    'Identifier of the acceptance record: "Path parameter ' +
    'institutionUserDisclosureId: used only with the second form."',
};
const byId = (d: OperationDocumentation): OperationDocumentation => ({
  ...d,
  parameters: [USER_DISCLOSURE_ID, ...d.parameters],
  note: BY_ID,
});

const SUCCESS_NOT_SHOWN =
  '"The status code of the successful responses of the GET operations and of ' +
  'create/change institution disclosure: not shown." Any 2xx.';
const DISCLOSURES_ERRORS: DocumentedResponse = {
  status: 'default',
  description: '"Errors of the disclosures operations: not shown." No ' + 'error status or body is documented.',
};
const NO_CONTENT: DocumentedResponse = { status: '204', description: '"Response: 204, no content."' };

const changeUserDisclosure: OperationDocumentation = {
  security: 'disclosuresBearer',
  parameters: [
    ...DISCLOSURES_HEADERS,
    {
      name: 'InstitutionDisclosureId',
      in: 'header',
      required: false,
      description: '"required only when the update is CAS-related; what ' + 'CAS-related means: not shown".',
    },
    { name: 'InstitutionUserDisclosureStatus', in: 'header', description: '"for example Accepted".' },
    { name: 'InstitutionDisclosureName', in: 'header', description: 'The name of the disclosure.' },
    INSTITUTION_CUSTOMER_ID,
  ],
  body: { schema: 'user-disclosure-change-request', requiredMembersStated: false },
  responses: [NO_CONTENT, DISCLOSURES_ERRORS],
};

const deleteUserDisclosure: OperationDocumentation = {
  security: 'disclosuresBearer',
  parameters: [
    ...DISCLOSURES_HEADERS,
    { name: 'InstitutionUserDisclosureStatus', in: 'header', description: 'The status of the acceptance record.' },
    { name: 'AccountId', in: 'header', description: 'The account identifier.' },
    { ...INSTITUTION_CUSTOMER_ID, description: '"mandatory for business banking requests".' },
    {
      name: 'AccountType',
      in: 'query',
      description: '"a valid account type of the platform; mandatory for ' + 'multi-statement disclosures".',
    },
  ],
  body: { schema: 'user-disclosure-delete-request', requiredMembersStated: false },
  responses: [NO_CONTENT, DISCLOSURES_ERRORS],
};

/** Operations 1 to 7, in the spec's order. */
export const DISCLOSURES_OPERATIONS = {
  listInstitutionDisclosures: {
    number: 1,
    area: 'disclosures',
    name: 'List institution disclosures',
    method: 'GET',
    base: 'baseUrl',
    path: `${D}/institution-disclosures`,
    section: '1. List institution disclosures',
    documented: {
      security: 'disclosuresBearer',
      parameters: DISCLOSURES_HEADERS,
      responses: [
        {
          status: '2XX',
          description:
            '"Response: object with institutionDisclosures, an array of Institution disclosure objects ' +
            `(see Resources)." ${SUCCESS_NOT_SHOWN}`,
          schema: 'institution-disclosure-list',
          // The resource's rules: only institutionDisclosureData, institutionDisclosureDataType and
          // institutionDisclosureStatus may be omitted from an element.
          elements: { member: 'institutionDisclosures', schema: 'institution-disclosure-list-element' },
        },
        DISCLOSURES_ERRORS,
      ],
    },
  },
  createInstitutionDisclosure: {
    number: 2,
    area: 'disclosures',
    name: 'Create an institution disclosure',
    method: 'POST',
    base: 'baseUrl',
    path: `${D}/institution-disclosures`,
    section: '2. Create an institution disclosure',
    mutates: 'institutionDisclosureWrites',
    documented: {
      security: 'disclosuresBearer',
      parameters: [...DISCLOSURES_HEADERS, ...INSTITUTION_DISCLOSURE_HEADERS],
      body: { schema: 'institution-disclosure-create-request', requiredMembersStated: false },
      responses: [
        {
          status: '2XX',
          description:
            `"Response: object with institutionDisclosureId, institutionDisclosureName, ` +
            `institutionDisclosureData, institutionDisclosureDataType." ${SUCCESS_NOT_SHOWN}`,
          schema: 'institution-disclosure-create-response',
        },
        DISCLOSURES_ERRORS,
      ],
    },
  },
  changeInstitutionDisclosure: {
    number: 3,
    area: 'disclosures',
    name: 'Change an institution disclosure',
    method: 'PUT',
    base: 'baseUrl',
    path: `${D}/institution-disclosures/{institutionDisclosureId}`,
    section: '3. Change an institution disclosure',
    mutates: 'institutionDisclosureWrites',
    documented: {
      security: 'disclosuresBearer',
      parameters: [
        {
          name: 'institutionDisclosureId',
          in: 'path',
          required: true,
          description: '"Path variable: institutionDisclosureId, unique ' + 'identifier of the disclosure."',
        },
        ...DISCLOSURES_HEADERS,
        ...INSTITUTION_DISCLOSURE_HEADERS,
      ],
      body: { schema: 'institution-disclosure-change-request', requiredMembersStated: false },
      responses: [
        {
          status: '2XX',
          description:
            `"Response: object with institutionDisclosureId, institutionId, institutionDisclosureName, ` +
            `institutionDisclosureData, institutionDisclosureDataType." ${SUCCESS_NOT_SHOWN}`,
          schema: 'institution-disclosure-change-response',
        },
        DISCLOSURES_ERRORS,
      ],
    },
  },
  listUserDisclosures: {
    number: 4,
    area: 'disclosures',
    name: 'List the disclosures accepted by a user',
    method: 'GET',
    base: 'baseUrl',
    path: `${D}/institution-user-disclosures`,
    section: '4. List the disclosures accepted by a user',
    documented: {
      security: 'disclosuresBearer',
      parameters: [
        ...DISCLOSURES_HEADERS,
        { name: 'InstitutionConsumerId', in: 'query', description: '"unique identifier of a consumer user".' },
      ],
      responses: [
        {
          status: '2XX',
          description:
            `"Response: object with institutionUserDisclosures, an array of objects of institutionId, ` +
            `institutionUserId, institutionUserDisclosureStatus, institutionDisclosureName." ${SUCCESS_NOT_SHOWN}`,
          schema: 'institution-user-disclosure-list',
          elements: { member: 'institutionUserDisclosures', schema: 'institution-user-disclosure-list-element' },
        },
        DISCLOSURES_ERRORS,
      ],
    },
  },
  createUserDisclosure: {
    number: 5,
    area: 'disclosures',
    name: 'Create a user disclosure acceptance record',
    method: 'POST',
    base: 'baseUrl',
    path: `${D}/institution-user-disclosures`,
    section: '5. Create a user disclosure acceptance record',
    documented: {
      security: 'disclosuresBearer',
      parameters: [
        ...DISCLOSURES_HEADERS,
        { name: 'InstitutionUserDisclosureStatus', in: 'header', description: '"for example Accepted".' },
        { name: 'InstitutionDisclosureName', in: 'header', description: 'The name of the disclosure.' },
        { name: 'AccountId', in: 'header', description: '"unique account identifier".' },
        { name: 'InstitutionDisclosureId', in: 'header', description: '"unique disclosure identifier".' },
        {
          name: 'InstitutionUserDisclosureStatusUpdateDateTime',
          in: 'header',
          description: '"a date-time stamp; its format: not shown".',
        },
      ],
      body: { schema: 'user-disclosure-create-request', requiredMembersStated: false },
      responses: [NO_CONTENT, DISCLOSURES_ERRORS],
    },
  },
  changeUserDisclosure: {
    number: 6,
    area: 'disclosures',
    name: 'Change a user disclosure',
    method: 'PUT',
    base: 'baseUrl',
    path: `${D}/institution-user-disclosures`,
    section: '6. Change a user disclosure',
    documented: changeUserDisclosure,
  },
  changeUserDisclosureById: {
    number: 6,
    area: 'disclosures',
    name: 'Change a user disclosure',
    method: 'PUT',
    base: 'baseUrl',
    path: `${D}/institution-user-disclosures/{institutionUserDisclosureId}`,
    section: '6. Change a user disclosure',
    documented: byId(changeUserDisclosure),
  },
  deleteUserDisclosure: {
    number: 7,
    area: 'disclosures',
    name: 'Delete a user disclosure',
    method: 'DELETE',
    base: 'baseUrl',
    path: `${D}/institution-user-disclosures`,
    section: '7. Delete a user disclosure',
    documented: deleteUserDisclosure,
  },
  deleteUserDisclosureById: {
    number: 7,
    area: 'disclosures',
    name: 'Delete a user disclosure',
    method: 'DELETE',
    base: 'baseUrl',
    path: `${D}/institution-user-disclosures/{institutionUserDisclosureId}`,
    section: '7. Delete a user disclosure',
    documented: byId(deleteUserDisclosure),
  },
} satisfies Record<string, OperationDef>;
