import { describe, expect, test } from 'vitest';
import { validate } from '../harness/schemas';

/** The shapes of operation 8 as the spec shows them validate; a wrong type or a missing required member does not. */

const tokenRecord = {
  expires_in: '3600',
  di_fiid: '1001',
  di_ficustomer: 'jordan.lee',
  access_token: 'a',
  refresh_token: 'r',
  refresh_token_expires_in: '86400',
};
const tokenRequest = {
  grant_type: 'refresh_token',
  username: 'u',
  password: 'p',
  scopes: 'openid',
  refresh_token: 'r',
};
const tokenError = {
  statusMessage: 'Bad Request',
  errorInfo: { errorType: 'USER_ERROR', errorCode: 'E1', errorMessage: 'm' },
};
const codeMessage = { code: 'E1', message: 'm' };
const phone = { phoneNumber: { id: '1', countryCode: '1', number: '5550100', protocol: 'SMS' } };
const authRecord = {
  userId: 'u',
  institutionCustomerId: 'c',
  userName: 'n',
  password: 'p',
  oldPassword: 'o',
  alternateCredentialValue: 'v',
  institutionId: '1001',
  deviceId: 'd',
  oneTimePasscode: '123456',
  ticket: 't',
  redirectUri: 'https://x.example/cb',
  clientId: 'ci',
  clientSecret: 'cs',
  state: 's',
  passwordExpiryInDays: '90',
  passwordExpiryWarningInDays: '7',
  passwordPostponementPeriodInDays: '3',
  alternateCredentialType: 'FACE_ID',
  requestChannel: 'WEB',
  status: 'SECONDARY_AUTHENTICATION_REQUIRED',
  grantType: 'AUTHORIZATION_CODE',
  phoneNumbers: phone,
  validatedPhoneNumbers: phone,
  validatedEmail: { id: 'e', address: 'a@example.com' },
  validatedVipToken: { id: 'v', credentialId: 'c' },
  validatedTotpToken: { id: 't' },
  secondaryAuthCookies: { name: 'n', value: 'v', maxAge: 3600 },
  privateDevice: true,
  scopes: { scope: { name: 'openid', description: 'd' } },
  additionalInfo: { entry: [{ key: 'k', value: 'v' }] },
};

describe('schemas of operation 8 accept the shapes the spec shows', () => {
  test.each([
    ['token-record', tokenRecord],
    ['token-record', {}],
    ['token-request', tokenRequest],
    ['token-error', tokenError],
    ['code-message-error', codeMessage],
    ['token-revocation-error', tokenError],
    ['token-revocation-error', codeMessage],
    ['authentication-record', authRecord],
    ['authentication-record', { ...authRecord, requestChannel: 'MOBILE', extra: 1 }],
    ['token-error', { ...tokenError, errorInfo: { ...tokenError.errorInfo, errorType: 'SYSTEM_ERROR' } }],
  ])('%s validates %j', (schema, data) => {
    expect(validate(schema, data)).toEqual([]);
  });
});

describe('schemas of operation 8 reject a wrong type or a missing member', () => {
  test.each([
    ['token-record', { ...tokenRecord, expires_in: 3600 }, '/expires_in must be string'],
    ['token-record', { ...tokenRecord, refresh_token_expires_in: 86400 }, '/refresh_token_expires_in must be string'],
    ['token-record', [], 'must be object'],
    ['token-request', { ...tokenRequest, grant_type: 1 }, '/grant_type must be string'],
    ['token-error', { errorInfo: tokenError.errorInfo }, 'missing member statusMessage'],
    ['token-error', { statusMessage: 'x' }, 'missing member errorInfo'],
    [
      'token-error',
      { ...tokenError, errorInfo: { errorType: 'USER_ERROR', errorCode: 1, errorMessage: 'm' } },
      '/errorInfo/errorCode must be string',
    ],
    ['code-message-error', { code: 'E1' }, 'missing member message'],
    ['code-message-error', { code: 400, message: 'm' }, '/code must be string'],
    ['token-revocation-error', { error: 'invalid_request', error_description: 'x' }, 'missing member'],
    [
      'authentication-record',
      { ...authRecord, secondaryAuthCookies: { maxAge: '3600' } },
      '/secondaryAuthCookies/maxAge must be integer',
    ],
    [
      'authentication-record',
      { ...authRecord, secondaryAuthCookies: { maxAge: 1.5 } },
      '/secondaryAuthCookies/maxAge must be integer',
    ],
    ['authentication-record', { ...authRecord, privateDevice: 'true' }, '/privateDevice must be boolean'],
    [
      'authentication-record',
      { ...authRecord, additionalInfo: { entry: { key: 'k' } } },
      '/additionalInfo/entry must be array',
    ],
    [
      'authentication-record',
      { ...authRecord, phoneNumbers: { phoneNumber: { number: 5550100 } } },
      '/phoneNumbers/phoneNumber/number must be string',
    ],
    ['authentication-record', { ...authRecord, passwordExpiryInDays: 90 }, '/passwordExpiryInDays must be string'],
  ])('%s rejects %j', (schema, data, message) => {
    const errors = validate(schema, data);
    expect(errors.join('; ')).toContain(message);
  });
});
