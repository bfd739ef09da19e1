import { request } from 'undici';
import { describe, expect, test } from 'vitest';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { startReferenceTarget } from '../reference-target/server';
import { runAreas } from './_reference';

/** What the suites put on the wire for operations 8 and 9, seen from the reference target's side. */
describe('requests of operations 8 and 9 as the target receives them', () => {
  test('header names are sent as the spec writes them; a deliberately omitted Content-Type is not added', async () => {
    const { target, cases } = await runAreas({ areas: ['authentication', 'money-movement'] });
    // The reproduce line of that case keeps curl from adding a Content-Type of its own.
    const omitted = cases.find((c) => c.title.includes('Content-Type header is missing'))!;
    expect(omitted.exchanges[0]!.curl).toContain(`-H 'Content-Type:' --data-raw`);
    expect(omitted.exchanges[0]!.request.headers).not.toHaveProperty('Content-Type');
    const revokes = target.state.seenRequests.filter((r) => r.path.endsWith('/oauth2/v1/revoke'));
    const transfers = target.state.seenRequests.filter((r) => r.path.endsWith('/db-transfers/v1/transfers'));
    expect(revokes.length).toBeGreaterThan(0);
    expect(transfers.length).toBeGreaterThan(0);
    // The documented request: every header under its documented spelling.
    const full = revokes.filter((r) =>
      ['institutionId', 'transactionId', 'Content-Type', 'Authorization', 'Accept'].every((h) =>
        r.headerNames.includes(h),
      ),
    );
    expect(full.length).toBeGreaterThan(0);
    for (const r of revokes)
      for (const name of r.headerNames)
        if (/^(institutionid|transactionid|content-type|authorization|accept)$/i.test(name))
          expect(['institutionId', 'transactionId', 'Content-Type', 'Authorization', 'Accept']).toContain(name);
    // Exactly one revoke request without any Content-Type: the case that omits it.
    expect(revokes.filter((r) => !r.headerNames.some((n) => /^content-type$/i.test(n))).length).toBe(1);
    for (const r of transfers)
      for (const name of r.headerNames)
        if (/^(transactionid|content-type|authorization|accept)$/i.test(name))
          expect(['transactionId', 'Content-Type', 'Authorization', 'Accept']).toContain(name);
  });

  test('a run sends the configured refresh token (a request that can revoke it) exactly once', async () => {
    const { target } = await runAreas({ areas: ['authentication'] });
    const carrying = target.state.seenRequests.filter((r) =>
      r.text.includes(REFERENCE_TEST_DATA.revocation.refresh_token),
    );
    expect(carrying.length).toBe(1);
    expect(target.state.liveRefreshTokens.has(REFERENCE_TEST_DATA.revocation.refresh_token)).toBe(false);
  });

  test(
    'the reference target treats revocation as idempotent (RFC ' + '7009): a second revocation is answered 200 too',
    async () => {
      const target = await startReferenceTarget();
      try {
        const send = () =>
          request(`${target.urls.authBaseUrl}/oauth2/v1/revoke`, {
            method: 'DELETE',
            headers: {
              Authorization: `Basic ${Buffer.from(
                `${REFERENCE_CREDENTIALS.revocationClientId}:${REFERENCE_CREDENTIALS.revocationClientSecret}`,
              ).toString('base64')}`,
              institutionId: REFERENCE_TEST_DATA.revocation.institutionId,
              transactionId: crypto.randomUUID(),
              'Content-Type': 'application/json',
            },
            body: JSON.stringify({
              grant_type: 'refresh_token',
              refresh_token: REFERENCE_TEST_DATA.revocation.refresh_token,
            }),
          });
        const first = await send();
        await first.body.text();
        const second = await send();
        await second.body.text();
        expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
      } finally {
        await target.close();
      }
    },
  );
});
