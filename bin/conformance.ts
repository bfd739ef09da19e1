import { main } from '../harness/run/main';
import { terminalText } from '../harness/run/terminal-text';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    // Never a stack trace for the user: one line, and the "could not test" exit code.
    process.stderr.write(`dbsi-conformance: unexpected error: ${terminalText((e as Error)?.message ?? String(e))}\n`);
    process.exit(3);
  },
);
