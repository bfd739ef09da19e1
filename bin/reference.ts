import { parseArgs } from 'node:util';
import { startReferenceTarget } from '../reference-target/server';
import { FAULTS } from '../reference-target/faults';
import type { FixtureSetName } from '../reference-target/fixture-sets';

/** Start the embedded reference target standalone: npm run reference -- [--port N] [--fault NAME]... [--latency MS] [--fixtures default|realistic] */
const { values } = parseArgs({ options: { port: { type: 'string' }, fault: { type: 'string', multiple: true }, latency: { type: 'string' }, fixtures: { type: 'string' }, 'list-faults': { type: 'boolean' } } });
if (values['list-faults']) {
  for (const f of FAULTS) console.log(`${f.name.padEnd(40)} ${f.area.padEnd(15)} breaks ${f.breaks.join(', ')}${f.strict ? ' (under --strict)' : ''}\n${' '.repeat(41)}${f.description}`);
  process.exit(0);
}
try {
  const target = await startReferenceTarget({ port: values.port ? Number(values.port) : 0, faults: values.fault ?? [], latencyMs: values.latency ? Number(values.latency) : undefined, fixtures: values.fixtures as FixtureSetName | undefined });
  console.log('DBSI reference target listening (Ctrl-C stops it)');
  console.log(`  baseUrl:          ${target.urls.baseUrl}`);
  console.log(`  authBaseUrl:      ${target.urls.authBaseUrl}`);
  console.log(`  transfersBaseUrl: ${target.urls.transfersBaseUrl}`);
  if (values.fault?.length) console.log(`  faults:           ${values.fault.join(', ')}`);
  if (values.fixtures) console.log(`  fixtures:         ${values.fixtures}`);
  const stop = () => void target.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (e) {
  console.error(`reference target: ${(e as Error).message}`);
  process.exit(2);
}
