import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NEAR_VARIANTS } from '../harness/credential-variants';
import { describe, expect, test } from 'vitest';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { runMain } from './_main';
import { startMisbehavingServer } from './_misbehaving-server';
import { joined } from './_regex';

/**
 * --dry-run through the CLI: the plan of every request a run would send to the configured target
 * (method, URL on its base URLs, the switch that gates it), on the console and in reports/, secrets
 * redacted, and not one request sent to the target.
 */
const SECRET = 'dry-run-bearer-secret-4711';

describe('--dry-run', { timeout: 300_000 }, () => {
  test(
    'plans every request on the configured base URLs and test data, ' +
      'names the switch, redacts secrets, sends nothing',
    async () => {
      const server = await startMisbehavingServer('silent');
      try {
        const first = await runMain(['--version']);
        const cfg = join(first.reports, 'target.json');
        const base = `${server.url}/bank`;
        writeFileSync(
          cfg,
          JSON.stringify({
            name: 'dry-run target',
            baseUrl: `${base}/api`,
            authBaseUrl: `${base}/id`,
            transfersBaseUrl: `${base}/xfer`,
            credentials: { ...REFERENCE_CREDENTIALS, bearerToken: SECRET },
            testData: {
              ...REFERENCE_TEST_DATA,
              institutionId: '7007',
              institutionUserId: 'dry-user-0001',
              moreCustomers: [],
              customer: { ...REFERENCE_TEST_DATA.customer, customerId: 'dry-customer-9' },
            },
            allow: { contactUpdate: true },
          }),
        );
        const run = await runMain(['--dry-run', '--config', cfg], { timeoutMs: 200_000 });
        expect(run.code, run.stdout + run.stderr).toBe(0);
        expect(server.received, 'nothing was sent to the target').toEqual([]);
        // Reads on the target's base URL, with its test data.
        expect(run.stdout).toMatch(
          new RegExp(
            `  GET ${base}/api/db-disclosures/v1/institution-user-disclosures\\?[^ ` +
              `]*InstitutionConsumerId=dry-user-0001[^ ]*  \\[no switch \\(a read\\)\\]`,
          ),
        );
        // A change allowed by its switch, and one refused because its switch is off.
        expect(run.stdout).toContain(
          `PUT ${base}/api/customers/dry-customer-9:contact-info  [allow.contactUpdate: on]`,
        );
        expect(run.stdout).toContain(
          `✗ POST ${base}/xfer/db-transfers/v1/transfers  ` + `[allow.moneyMovement: off, refused before sending]`,
        );
        expect(run.stdout).toMatch(
          joined(
            '',
            /\d+ requests would be sent to dry-run target \(behind a safety switch: \d+ under /,
            /allow\.contactUpdate\); \d+ requests refused before sending \(switch off\)\. Nothing was sent to /,
            /the target\./,
          ),
        );
        const plan = readFileSync(join(run.reports, 'dry-run-plan.md'), 'utf8');
        expect(plan).toContain('# DBSI conformance: dry-run plan for dry-run target');
        expect(plan).toContain(
          `| PUT | \`${base}/api/customers/dry-customer-9:contact-info\` ` + `| allow.contactUpdate: on |`,
        );
        for (const text of [run.stdout, run.stderr, plan]) {
          expect(text).not.toContain(SECRET);
          expect(text).not.toContain('127.0.0.1:0');
        }
        // A request several tests are judged on is planned once, under the test that sends it: the user-disclosure
        // cases share one life of two records (two creates, one more after the first delete), and the tests judged
        // on it say whose requests those are.
        // (The explorer's sections, suites/explore/, have creates of their own.)
        const handWritten = plan
          .split('\n## ')
          .filter(
            (section) => !section.startsWith(`disclosures › 4. List the disclosures accepted by a user › explored`),
          )
          .join('\n## ');
        expect(
          handWritten.match(/\| POST \| `[^`]*\/institution-user-disclosures` \| no switch \|/g) ?? [],
        ).toHaveLength(3 + 2 + NEAR_VARIANTS.length);
        expect(plan).toMatch(
          joined(
            '',
            /## disclosures › 6\. Change a user disclosure › changes the record's status to the one sent, /,
            /NOT_ACCEPTED \(collection form\)\n\nJudged \(also\) on the requests of "[^"]+"\.\n\n\(no request /,
            /of its own\)/,
          ),
        );
        // The rehearsal's own addresses and data never show.
        expect(run.stdout).not.toMatch(/\/dbsi\/|consumer-42|cust%2F7/);
      } finally {
        await server.close();
      }
    },
  );

  test('with a selection: only the selected tests are planned', async () => {
    const run = await runMain([
      '--dry-run',
      '--grep',
      'List institution disclosures: is not served ' + 'without credentials',
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      joined(
        'm',
        /^disclosures › 1\. List institution disclosures › List institution disclosures: is not served without /,
        /credentials\n {2}GET http:\/\/127\.0\.0\.1:\d+\/dbsi\/db-disclosures\/v1\/institution-disclosures {2}/,
        /\[no switch \(a read\)\]\n/,
      ),
    );
    expect(run.stdout).toContain('1 request would be sent to embedded reference target, none behind a safety switch.');
  });
});
