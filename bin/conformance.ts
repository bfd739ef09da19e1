import { fileURLToPath } from 'node:url';
import { terminalText } from '../harness/run/terminal-text';
import { superviseJob, underTsxCommand } from '../harness/run/tsx-supervisor';

const argv = process.argv.slice(2);
// `dbsi-conformance verify BUNDLE --key PUB`: the evidence bundle's signature (harness/evidence/verify.ts).
const io = {
  out: (l: string) => process.stdout.write(terminalText(l) + '\n'),
  err: (l: string) => process.stderr.write(terminalText(l) + '\n'),
};
// `dbsi-conformance merge FOLDER...`: a fleet's matrix from report folders made elsewhere.
// Under the tsx command, which kills a child slow to acknowledge a Ctrl-C, this process only supervises the job
// (harness/run/tsx-supervisor.ts): an interrupted run still writes its reports. It loads nothing else, so that its
// main thread stays free to answer tsx.
const run = underTsxCommand()
  ? superviseJob(fileURLToPath(import.meta.url), argv)
  : argv[0] === 'verify'
    ? import('../harness/evidence/verify').then((m) => m.verifyCommand(argv.slice(1), process.env, io))
    : argv[0] === 'merge'
      ? import('../harness/evidence/merge').then((m) => m.mergeCommand(argv.slice(1), process.env, io))
      : import('../harness/run/main').then((m) => m.main(argv));

run.then(
  (code) => process.exit(code),
  (e: unknown) => {
    // Never a stack trace for the user: one line, and the "could not test" exit code.
    process.stderr.write(`dbsi-conformance: unexpected error: ${terminalText((e as Error)?.message ?? String(e))}\n`);
    process.exit(3);
  },
);
