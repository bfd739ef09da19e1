import { parseArgs } from 'node:util';
import { startReferenceTarget } from '../reference-target/server';
import { FAULTS } from '../reference-target/faults';
import { FIXTURE_SETS, type FixtureSetName } from '../reference-target/fixture-sets';
import { REFERENCE_CREDENTIALS, REFERENCE_TEST_DATA } from '../reference-target/fixtures';
import { referenceConfigFile } from '../reference-target/config';

const USAGE = `Usage: npm run reference -- [options]

Starts the embedded reference target (an in-memory implementation of the spec) on 127.0.0.1 and
prints its URLs and the credentials it accepts, to explore it with curl. Ctrl-C stops it.

Options:
  --port N             listen on port N (default: a free port)
  --fault NAME         switch on a named fault (repeatable; see --list-faults)
  --latency MS         delay every answer by MS milliseconds
  --throttle N         above N requests in any second, answer 500 {"code":"CMN_90002","message":"Spike
                       limit violation"} and do not process the request (a vendor's spike arrest)
  --fixtures NAME      the data it starts with: ${Object.keys(FIXTURE_SETS).join(', ')} (default: default)
  --list-faults        print the named faults and exit
  -h, --help           this text`;

function fail(message: string): never {
  process.stderr.write(`reference target: ${message}\n\n${USAGE}\n`);
  process.exit(2);
}

let values;
try {
  values = parseArgs({
    options: {
      port: { type: 'string' },
      fault: { type: 'string', multiple: true },
      latency: { type: 'string' },
      throttle: { type: 'string' },
      fixtures: { type: 'string' },
      'list-faults': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  }).values;
} catch (e) {
  fail((e as Error).message);
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (values['list-faults']) {
  for (const f of FAULTS)
    console.log(
      `${f.name.padEnd(40)} ${f.area.padEnd(15)} breaks ` +
        `${f.breaks.join(', ')}${f.strict ? ' (under --strict)' : ''}\n${' '.repeat(41)}${f.description}`,
    );
  process.exit(0);
}
const port = values.port === undefined ? 0 : Number(values.port);
if (!/^\d+$/.test(values.port ?? '0') || port > 65535)
  fail(`--port must be a whole number from 0 to ` + `65535, not "${values.port}"`);
const latencyMs = values.latency === undefined ? undefined : Number(values.latency);
if (latencyMs !== undefined && (!/^\d+(\.\d+)?$/.test(values.latency!) || !Number.isFinite(latencyMs)))
  fail(`--latency must be a number of milliseconds, ` + `not "${values.latency}"`);
const throttlePerSecond = values.throttle === undefined ? undefined : Number(values.throttle);
if (throttlePerSecond !== undefined && (!/^\d+$/.test(values.throttle!) || throttlePerSecond < 1)) {
  fail(`--throttle must be a whole number of requests per second from 1, not "${values.throttle}"`);
}
if (values.fixtures !== undefined && !Object.hasOwn(FIXTURE_SETS, values.fixtures))
  fail(`unknown fixture set "${values.fixtures}" (expected one of ` + `${Object.keys(FIXTURE_SETS).join(', ')})`);

try {
  const fixtures = values.fixtures as FixtureSetName | undefined;
  const faults = values.fault ?? [];
  const target = await startReferenceTarget({ port, faults, latencyMs, throttlePerSecond, fixtures });
  const c = REFERENCE_CREDENTIALS;
  console.log('DBSI reference target listening (Ctrl-C stops it)');
  console.log(`  baseUrl:          ${target.urls.baseUrl}`);
  console.log(`  authBaseUrl:      ${target.urls.authBaseUrl}`);
  console.log(`  transfersBaseUrl: ${target.urls.transfersBaseUrl}`);
  if (values.fault?.length) console.log(`  faults:           ${values.fault.join(', ')}`);
  if (throttlePerSecond) console.log(`  throttle:         ${throttlePerSecond} requests/s, then 500 CMN_90002`);
  if (values.fixtures) console.log(`  fixtures:         ${values.fixtures}`);
  // Made-up credentials of this local target (not secrets of any real system): what the suite's
  // curl lines name, so that they replay against it.
  console.log('\nCredentials it accepts (made up, for this local target only):');
  console.log(`  export DBSI_BEARER_TOKEN=${c.bearerToken} DBSI_TRANSFERS_TOKEN=${c.transfersToken}`);
  console.log(
    `  export DBSI_REVOCATION_CLIENT_ID=${c.revocationClientId} ` +
      `DBSI_REVOCATION_CLIENT_SECRET=${c.revocationClientSecret}`,
  );
  const file = referenceConfigFile(target, { testData: FIXTURE_SETS[fixtures ?? 'default'].testData });
  console.log('\nA configuration for it (save as reference.target.json; credentials from the exports above):');
  console.log(JSON.stringify(file, null, 2));
  console.log('  npm run conformance -- --config reference.target.json');
  console.log('\nTry:');
  console.log(
    `  curl -sS -i '${target.urls.baseUrl}/db-disclosures/v1/institution-disclosures' -H "Authorization: ` +
      `Bearer $DBSI_BEARER_TOKEN" -H 'TransactionId: 1' -H 'callingAppId: curl' -H 'InstitutionId: ` +
      `${REFERENCE_TEST_DATA.institutionId}'`,
  );
  const stop = () => void target.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  console.error(`reference target: ${(e as Error).message}`);
  process.exit(2);
}
