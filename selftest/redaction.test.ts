import { describe, expect, test } from 'vitest';
import { curlLine, REDACTED, Redactor } from '../harness/redact';

const secret = 'tok-SECRET-4242';
const basic = Buffer.from('client-id-77:client-secret-88').toString('base64');
const r = new Redactor([secret, 'client-secret-88', basic]);

describe('redaction', () => {
  test('hides the credential of an Authorization header but keeps its scheme', () => {
    expect(r.header('Authorization', `Bearer ${secret}`)).toBe(`Bearer ${REDACTED}`);
    expect(r.header('authorization', `Basic ${basic}`)).toBe(`Basic ${REDACTED}`);
    expect(r.header('Authorization', 'opaque-value')).toBe(REDACTED);
  });

  test('hides a configured secret anywhere in text, also base64- and URL-encoded', () => {
    expect(r.text(`x=${secret}&y=1`)).toBe(`x=${REDACTED}&y=1`);
    expect(r.text(Buffer.from(secret).toString('base64'))).toBe(REDACTED);
    expect(r.text(encodeURIComponent('client-secret-88'))).toBe(REDACTED);
  });

  test('masks JSON members whose names say secret, whatever their value', () => {
    const body = r.body(
      JSON.stringify({
        access_token: 'a1b2c3d4',
        refresh_token: 'r9',
        password: 'pw12345',
        username: 'jordan',
        nested: { clientSecret: 'cs-1' },
      }),
    )!;
    const parsed = JSON.parse(body);
    expect(parsed).toEqual({
      access_token: REDACTED,
      refresh_token: REDACTED,
      password: REDACTED,
      username: 'jordan',
      nested: { clientSecret: REDACTED },
    });
  });

  test('leaves a body that is not JSON as text, secrets hidden', () => {
    expect(r.body(`<html>${secret}</html>`)).toBe(`<html>${REDACTED}</html>`);
  });
});

describe('curl reproducer', () => {
  test('reproduces method, URL, headers and body, credentials as environment variables', () => {
    const line = curlLine(
      {
        method: 'PUT',
        url: 'https://bank.example/api/customers/a%2Fb:contact-info',
        headers: { Authorization: `Bearer ${secret}`, TransactionId: 'u-1', 'Content-Type': 'application/json' },
        body: '{"a":"it\'s"}',
      },
      r,
      'DBSI_BEARER_TOKEN',
    );
    expect(line).toBe(
      `curl -sS -i -X PUT 'https://bank.example/api/customers/a%2Fb:contact-info' -H "Authorization: Bearer ` +
        `$DBSI_BEARER_TOKEN" -H 'TransactionId: u-1' -H 'Content-Type: application/json' --data-raw '{"a":"it'\\''s"}'`,
    );
    expect(line).not.toContain(secret);
  });

  test('a Basic credential is rebuilt from the documented environment variables', () => {
    const line = curlLine(
      {
        method: 'DELETE',
        url: 'https://bank.example/identity/oauth2/v1/revoke',
        headers: { Authorization: `Basic ${basic}` },
      },
      r,
    );
    expect(line).toContain('$DBSI_REVOCATION_CLIENT_ID:$DBSI_REVOCATION_CLIENT_SECRET');
    expect(line).not.toContain(basic);
  });

  test('a secret inside the body never reaches the line', () => {
    const line = curlLine(
      {
        method: 'DELETE',
        url: 'https://x.example/r',
        headers: {},
        body: JSON.stringify({ password: 'pw-not-configured', refresh_token: secret }),
      },
      r,
    );
    expect(line).not.toContain('pw-not-configured');
    expect(line).not.toContain(secret);
  });
});

describe('curl reproducer of a deliberately wrong credential', () => {
  test('shows the made-up credential as sent, so replaying reproduces the refusal', () => {
    const wrong = Buffer.from('client-id-77:not-the-secret').toString('base64');
    const line = curlLine(
      {
        method: 'DELETE',
        url: 'https://x.example/r',
        headers: { Authorization: `Basic ${wrong}`, 'X-Other': 'Bearer invalid-abc' },
      },
      r,
    );
    expect(line).toContain(`'Authorization: Basic ${wrong}'`);
    expect(line).not.toContain('DBSI_REVOCATION_CLIENT_SECRET');
  });
});
