import { main } from '../harness/traffic/recorder/main';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`dbsi-conformance record: unexpected error: ${(e as Error)?.message ?? String(e)}\n`);
    process.exit(3);
  },
);
