import { Faker, en } from '@faker-js/faker';
import { describe, expect, test } from 'vitest';
import {
  changeInstitutionDisclosureRequest,
  changeUserDisclosureRequest,
  createInstitutionDisclosureRequest,
  createUserDisclosureRequest,
  deleteUserDisclosureRequest,
  disclosureName,
  listUserDisclosuresRequest,
} from '../data-builders/disclosures';
import { validate, validator } from '../harness/schemas';
import { referenceConfig } from '../reference-target/config';

/**
 * The schemas of operations 1–7 are faithful to the spec: every value and shape the spec shows
 * validates, extra members and unlisted (not shown) values are allowed, and each schema rejects the
 * wrong type, the wrong envelope and a missing required member.
 */

const disclosure = {
  institutionDisclosureId: 'disc-1',
  institutionId: '1001',
  institutionDisclosureName: 'E-Sign Agreement',
  institutionDisclosureData: 'https://fi.example/esign.pdf',
  institutionDisclosureDataType: 'URL',
  institutionDisclosureStatus: true,
};
const userRecord = {
  institutionId: '1001',
  institutionUserId: 'consumer-42',
  institutionUserDisclosureStatus: 'ACCEPTED',
  institutionDisclosureName: 'E-Sign Agreement',
  institutionUserDisclosureId: 'uds-1',
  institutionDisclosureId: 'disc-1',
  accountId: 'acct-1',
};
const listElement = {
  institutionId: '1001',
  institutionUserId: 'consumer-42',
  institutionUserDisclosureStatus: 'NOT_ACCEPTED',
  institutionDisclosureName: 'E-Sign Agreement',
};
const { institutionDisclosureStatus: _s, institutionId: _i, ...createResponse } = disclosure;
const { institutionDisclosureStatus: _s2, ...changeResponse } = disclosure;

interface Case {
  schema: string;
  valid: unknown[];
  wrongType: unknown;
  wrongEnvelope: unknown;
  /** undefined where the schema requires no member (it types what is present). */
  missingMember?: unknown;
}

const without = (o: Record<string, unknown>, k: string) =>
  Object.fromEntries(Object.entries(o).filter(([key]) => key !== k));

const CASES: Case[] = [
  {
    schema: 'institution-disclosure',
    valid: [
      disclosure,
      { ...disclosure, institutionDisclosureStatus: false },
      { institutionDisclosureId: 'disc-3', institutionId: '1001', institutionDisclosureName: 'Overdraft Terms' },
      { ...disclosure, institutionDisclosureDataType: 'PDF', vendorExtra: 1 },
    ],
    wrongType: { ...disclosure, institutionDisclosureStatus: 'true' },
    wrongEnvelope: [disclosure],
  },
  {
    schema: 'institution-disclosure-list-element',
    valid: [
      disclosure,
      { institutionDisclosureId: 'disc-3', institutionId: '1001', institutionDisclosureName: 'Overdraft Terms' },
      { ...disclosure, institutionDisclosureDataType: 'PDF', vendorExtra: 1 },
    ],
    wrongType: { ...disclosure, institutionDisclosureStatus: 'true' },
    wrongEnvelope: { institutionDisclosures: [disclosure] },
    missingMember: without(disclosure, 'institutionId'),
  },
  {
    schema: 'institution-disclosure-list',
    valid: [
      {
        institutionDisclosures: [
          disclosure,
          { institutionDisclosureId: 'disc-3', institutionId: '1001', institutionDisclosureName: 'Overdraft Terms' },
        ],
      },
      { institutionDisclosures: [] },
      { institutionDisclosures: [], next: null },
    ],
    wrongType: { institutionDisclosures: { 0: disclosure } },
    wrongEnvelope: { disclosures: [disclosure] },
    missingMember: {},
  },
  {
    schema: 'institution-disclosure-create-request',
    valid: [
      { institutionId: '1001', institutionDisclosureName: 'E-Sign Agreement', institutionDisclosureStatus: true },
      { institutionId: '1001', institutionDisclosureName: 'x', institutionDisclosureStatus: false },
    ],
    wrongType: { institutionId: '1001', institutionDisclosureName: 'x', institutionDisclosureStatus: 'true' },
    wrongEnvelope: [{ institutionId: '1001', institutionDisclosureName: 'x', institutionDisclosureStatus: true }],
    missingMember: { institutionId: '1001', institutionDisclosureStatus: true },
  },
  {
    schema: 'institution-disclosure-create-response',
    valid: [createResponse, { ...createResponse, institutionDisclosureDataType: 'PDF', institutionId: '1001' }],
    wrongType: { ...createResponse, institutionDisclosureId: 7 },
    wrongEnvelope: { institutionDisclosure: createResponse },
    missingMember: without(createResponse, 'institutionDisclosureData'),
  },
  {
    schema: 'institution-disclosure-change-request',
    valid: [
      {
        institutionDisclosureId: 'disc-1',
        institutionId: '1001',
        institutionDisclosureName: 'E-Sign Agreement',
        institutionDisclosureStatus: false,
      },
    ],
    wrongType: {
      institutionDisclosureId: 'disc-1',
      institutionId: 1001,
      institutionDisclosureName: 'x',
      institutionDisclosureStatus: false,
    },
    wrongEnvelope: 'disc-1',
    missingMember: { institutionId: '1001', institutionDisclosureName: 'x', institutionDisclosureStatus: false },
  },
  {
    schema: 'institution-disclosure-change-response',
    valid: [changeResponse, { ...changeResponse, institutionDisclosureStatus: true }],
    wrongType: { ...changeResponse, institutionDisclosureName: ['x'] },
    wrongEnvelope: { institutionDisclosures: [changeResponse] },
    missingMember: without(changeResponse, 'institutionId'),
  },
  {
    schema: 'institution-user-disclosure',
    valid: [
      userRecord,
      { ...userRecord, institutionUserDisclosureStatus: 'NOT_ACCEPTED' },
      listElement,
      { ...listElement, institutionUserDisclosureStatus: 'PENDING_REVIEW', extra: true },
    ],
    wrongType: { ...userRecord, institutionUserId: 42 },
    wrongEnvelope: [userRecord],
  },
  {
    schema: 'institution-user-disclosure-list-element',
    valid: [listElement, userRecord, { ...listElement, institutionUserDisclosureStatus: 'ACCEPTED' }],
    wrongType: { ...listElement, institutionUserDisclosureStatus: true },
    wrongEnvelope: { institutionUserDisclosures: [listElement] },
    missingMember: without(listElement, 'institutionUserId'),
  },
  {
    schema: 'institution-user-disclosure-list',
    valid: [{ institutionUserDisclosures: [listElement, userRecord] }, { institutionUserDisclosures: [] }],
    wrongType: { institutionUserDisclosures: listElement },
    wrongEnvelope: { userDisclosures: [listElement] },
    missingMember: {},
  },
  {
    schema: 'user-disclosure-create-request',
    valid: [{ institutionUserDisclosureStatus: 'ACCEPTED', institutionDisclosureName: 'E-Sign Agreement' }],
    wrongType: { institutionUserDisclosureStatus: true, institutionDisclosureName: 'E-Sign Agreement' },
    wrongEnvelope: ['ACCEPTED'],
    missingMember: { institutionUserDisclosureStatus: 'ACCEPTED' },
  },
  {
    schema: 'user-disclosure-change-request',
    valid: [
      {
        institutionDisclosureId: 'disc-1',
        institutionDisclosureName: 'E-Sign Agreement',
        institutionDisclosureStatus: 'NOT_ACCEPTED',
      },
    ],
    wrongType: {
      institutionDisclosureId: 'disc-1',
      institutionDisclosureName: 'E-Sign Agreement',
      institutionDisclosureStatus: false,
    },
    wrongEnvelope: null,
    missingMember: { institutionDisclosureId: 'disc-1', institutionDisclosureName: 'E-Sign Agreement' },
  },
  {
    schema: 'user-disclosure-delete-request',
    valid: [{ institutionDisclosureName: 'E-Sign Agreement', accountId: 'acct-1' }],
    wrongType: { institutionDisclosureName: 'E-Sign Agreement', accountId: 100200 },
    wrongEnvelope: [{ institutionDisclosureName: 'E-Sign Agreement', accountId: 'acct-1' }],
    missingMember: { institutionDisclosureName: 'E-Sign Agreement' },
  },
];

describe('disclosures schemas', () => {
  test.each(CASES.map((c) => [c.schema, c] as const))(
    '%s: accepts the spec shapes, rejects wrong type, ' + 'envelope and missing member',
    (_n, c) => {
      const schema = validator(c.schema).schema as Record<string, unknown>;
      expect(schema.$id).toBe(`https://dbsi-conformance.dev/schemas/${c.schema}.schema.json`);
      expect(String(schema.description)).toMatch(/Spec/);
      expect(schema['x-spec-section']).toBeTruthy();
      for (const v of c.valid) expect(validate(c.schema, v), JSON.stringify(v)).toEqual([]);
      expect(validate(c.schema, c.wrongType).length, 'wrong type').toBeGreaterThan(0);
      expect(validate(c.schema, c.wrongEnvelope).length, 'wrong envelope').toBeGreaterThan(0);
      if (c.missingMember !== undefined)
        expect(validate(c.schema, c.missingMember).join(' '), 'missing member').toMatch(/missing member/);
    },
  );
});

describe('disclosures data builders', () => {
  const cfg = referenceConfig({
    urls: {
      baseUrl: 'http://127.0.0.1:1/dbsi',
      authBaseUrl: 'http://127.0.0.1:1/identity',
      transfersBaseUrl: 'http://127.0.0.1:1/banking',
    },
  });
  const f = new Faker({ locale: [en] });
  f.seed(7);
  const d = {
    institutionDisclosureId: 'disc-001',
    institutionDisclosureName: 'E-Sign Agreement',
    institutionId: '1001',
  };
  const COMMON = ['Authorization', 'TransactionId', 'callingAppId'];

  test('names the run creates carry the run prefix and are at most 20 characters', () => {
    for (const runId of ['r4k2', 'rtst', 'a-very-long-run-identifier']) {
      const n = disclosureName(f, runId);
      expect(n.length).toBeLessThanOrEqual(20);
      expect(n.startsWith(`dbsi-${runId}`.slice(0, 14))).toBe(true);
    }
  });

  test.each([
    [
      'create institution disclosure',
      createInstitutionDisclosureRequest(f, cfg, 'dbsi-rtst-abc', true),
      'institution-disclosure-create-request',
      ['InstitutionId', 'InstitutionDisclosureName', 'InstitutionDisclosureStatus'],
    ],
    [
      'change institution disclosure',
      changeInstitutionDisclosureRequest(f, cfg, {
        institutionDisclosureId: 'disc-1',
        institutionId: '1001',
        institutionDisclosureName: 'n',
        institutionDisclosureStatus: false,
      }),
      'institution-disclosure-change-request',
      ['InstitutionId', 'InstitutionDisclosureName', 'InstitutionDisclosureStatus'],
    ],
    [
      'create user disclosure',
      createUserDisclosureRequest(f, cfg, d),
      'user-disclosure-create-request',
      [
        'InstitutionUserDisclosureStatus',
        'InstitutionDisclosureName',
        'AccountId',
        'InstitutionDisclosureId',
        'InstitutionUserDisclosureStatusUpdateDateTime',
      ],
    ],
    [
      'change user disclosure',
      changeUserDisclosureRequest(f, cfg, d),
      'user-disclosure-change-request',
      ['InstitutionDisclosureId', 'InstitutionUserDisclosureStatus', 'InstitutionDisclosureName'],
    ],
    [
      'delete user disclosure',
      deleteUserDisclosureRequest(f, cfg, d),
      'user-disclosure-delete-request',
      ['InstitutionUserDisclosureStatus', 'AccountId'],
    ],
  ] as const)(
    '%s: the body matches its schema, the documented headers ' + "are sent under the spec's names",
    (_n, req, schema, headers) => {
      expect(validate(schema, req.body)).toEqual([]);
      for (const h of [...COMMON, ...headers]) expect(Object.keys(req.headers)).toContain(h);
    },
  );

  test('header and body carry the same values in create and change of an institution disclosure', () => {
    for (const req of [
      createInstitutionDisclosureRequest(f, cfg, 'n1', false),
      changeInstitutionDisclosureRequest(f, cfg, {
        institutionDisclosureId: 'x',
        institutionId: '1001',
        institutionDisclosureName: 'n2',
        institutionDisclosureStatus: true,
      }),
    ]) {
      const b = req.body as Record<string, unknown>;
      expect(req.headers.InstitutionId).toBe(b.institutionId);
      expect(req.headers.InstitutionDisclosureName).toBe(b.institutionDisclosureName);
      expect(req.headers.InstitutionDisclosureStatus).toBe(String(b.institutionDisclosureStatus));
    }
  });

  test(
    'the list of user disclosures carries InstitutionConsumerId; ' +
      'InstitutionCustomerId and AccountType only when configured',
    () => {
      expect(listUserDisclosuresRequest(f, cfg).query).toEqual({
        InstitutionConsumerId: cfg.testData.institutionUserId,
      });
      expect(changeUserDisclosureRequest(f, cfg, d).query?.InstitutionCustomerId).toBeUndefined();
      const configured = {
        ...cfg,
        testData: { ...cfg.testData, institutionCustomerId: 'biz-7', accountType: 'CHECKING' },
      };
      expect(changeUserDisclosureRequest(f, configured, d).query).toEqual({ InstitutionCustomerId: 'biz-7' });
      expect(deleteUserDisclosureRequest(f, configured, d).query).toEqual({
        InstitutionCustomerId: 'biz-7',
        AccountType: 'CHECKING',
      });
    },
  );
});
