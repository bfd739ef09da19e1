import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { secretValues } from '../harness/config';
import { curlLine, REDACTED, Redactor } from '../harness/redact';
import { REFERENCE_CREDENTIALS as C, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { referenceConfig } from '../reference-target/config';
import { startReferenceTarget } from '../reference-target/server';
import { runAreas } from './_reference';

/**
 * A curl line replays the configured secrets of a body (the revocation password and refresh token) from their
 * environment variables, as it does the Authorization header: the line holds no secret, and run with the
 * variables set it sends the body that was sent, byte for byte.
 */
const sh = promisify(execFile);
const PASSWORD = `pw "quoted" \\ it's $HOME-1`;
const REFRESH = 'rt-0a9e7d3b-ÄÖ-refresh';
const SECRETS = { DBSI_REVOCATION_PASSWORD: PASSWORD, DBSI_REVOCATION_REFRESH_TOKEN: REFRESH };

/** What bash makes of the line's --data-raw argument, with the variables set. */
async function replayedBody(line: string, env: Record<string, string>): Promise<string> {
  const data = line.slice(line.indexOf(' --data-raw ') + ' --data-raw '.length);
  const options = { env: { ...process.env, ...env }, encoding: 'utf8' as const };
  const { stdout } = await sh('bash', ['-c', `printf %s ${data}`], options);
  return stdout;
}

describe('curl lines of a body holding configured secrets', () => {
  const r = new Redactor([PASSWORD, REFRESH]);
  const body = JSON.stringify({
    grant_type: 'refresh_token',
    username: 'jordan',
    password: PASSWORD,
    scopes: 'openid',
    refresh_token: REFRESH,
  });
  const curl = (url: string, text: string) =>
    curlLine({ method: 'DELETE', url, headers: {}, body: text }, r, undefined, {}, SECRETS);
  const line = curl('https://x.example/oauth2/v1/revoke', body);

  test('replays each secret from its variable and holds none', async () => {
    expect(line).toContain(`"password":'"$(printf %s "$DBSI_REVOCATION_PASSWORD" | jq -Rs .)"'`);
    expect(line).toContain(`"refresh_token":'"$(printf %s "$DBSI_REVOCATION_REFRESH_TOKEN" | jq -Rs .)"'}'`);
    expect(line).not.toContain(REDACTED);
    expect(r.text(line), 'no form of a secret in the line').toBe(line);
    expect(await replayedBody(line, SECRETS)).toBe(body);
  });

  test('a made-up value under a secret name is still masked; a body without secrets is quoted whole', () => {
    const decoy = JSON.stringify({ grant_type: 'refresh_token', refresh_token: 'decoy-not-configured-1' });
    const decoyLine = curl('https://x.example/r', decoy);
    expect(decoyLine).toContain(`--data-raw '{"grant_type":"refresh_token","refresh_token":"${REDACTED}"}'`);
    expect(decoyLine).not.toContain('jq');
    // A secret inside a longer text is redacted, not replayed.
    const inside = JSON.stringify({ note: `see ${REFRESH} here` });
    const insideLine = curl('https://x.example/r', inside);
    expect(insideLine).toContain(`--data-raw '{"note":"see ${REDACTED} here"}'`);
  });

  test("a run's revocation line, replayed with the variables set, revokes the token on a fresh target", async () => {
    const { cases } = await runAreas({ areas: ['authentication'], allow: { tokenRevocation: true } });
    const sent = cases.flatMap((c) => c.exchanges).filter((x) => x.curl.includes('DBSI_REVOCATION_REFRESH_TOKEN'));
    expect(sent).toHaveLength(1);
    const original = sent[0]!.curl;
    const url = 'http://127.0.0.1:1';
    const config = referenceConfig({ urls: { baseUrl: url, authBaseUrl: url, transfersBaseUrl: url } });
    expect(new Redactor(secretValues(config)).text(original), 'no secret in the line').toBe(original);
    const target = await startReferenceTarget();
    try {
      const revoke = /'http:\/\/127\.0\.0\.1:\d+\/[^']*\/oauth2\/v1\/revoke'/;
      expect(original).toMatch(revoke);
      const curl = original.replace(revoke, `'${target.urls.authBaseUrl}/oauth2/v1/revoke'`);
      expect(target.state.liveRefreshTokens.has(REFERENCE_TEST_DATA.revocation.refresh_token)).toBe(true);
      const env = {
        DBSI_REVOCATION_CLIENT_ID: C.revocationClientId,
        DBSI_REVOCATION_CLIENT_SECRET: C.revocationClientSecret,
        DBSI_REVOCATION_PASSWORD: REFERENCE_TEST_DATA.revocation.password,
        DBSI_REVOCATION_REFRESH_TOKEN: REFERENCE_TEST_DATA.revocation.refresh_token,
      };
      const options = { env: { ...process.env, ...env }, encoding: 'utf8' as const, timeout: 120_000 };
      const replay = await sh('bash', ['-c', curl], options);
      expect(replay.stdout).toMatch(/^HTTP\/1\.1 200/);
      expect(target.state.liveRefreshTokens.has(REFERENCE_TEST_DATA.revocation.refresh_token)).toBe(false);
    } finally {
      await target.close();
    }
  });
});
