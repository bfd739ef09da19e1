import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfigFile } from '../../config';
import { userCwd } from '../../local-files';
import { suiteVersion } from '../../run/common';
import { startRecording } from './session';

export const RECORD_USAGE = `Usage: npm run record -- --config FILE --listen 127.0.0.1:PORT --out FILE.har

A reverse proxy that records a client's traffic to a target as HAR 1.2. Point the client (the
bank's app in a test build, curl, another test suite) at the base URLs it prints; it forwards to
the configured base URLs with the configured TLS, proxy and timeouts, writes the HAR with every
secret redacted (configured ones and every credential the traffic carries), and prints each broken
rule as it happens. Ctrl-C stops it; the HAR is then complete. Judge it with
  npm run conformance -- --traffic FILE.har --config FILE

Options:
  --config FILE          target configuration (or DBSI_CONFIG); its base URLs are the upstream
  --listen HOST:PORT     where the proxy listens (default 127.0.0.1:8780; port 0: any free port)
  --out FILE.har         where the HAR goes (default recorded.har)
  --strict               also print broken INFO observations
  -h, --help             this text

Exit codes: 0 recorded (after Ctrl-C or SIGTERM), 2 usage or configuration error.`;

type Io = { out: (l: string) => void; err: (l: string) => void };

export async function main(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: Io = { out: (l: string) => process.stdout.write(l + '\n'), err: (l: string) => process.stderr.write(l + '\n') },
): Promise<number> {
  const o = recordOptions(argv, env, io);
  if (typeof o === 'number') return o;
  const { config, configPath } = o;
  // A relative path is the user's, from the folder npm was run from (INIT_CWD), not the package root.
  const out = resolve(userCwd(env), o.out);
  let session;
  try {
    session = await startRecording(config, {
      host: o.host,
      port: o.port,
      out,
      version: suiteVersion(),
      print: io.out,
      strict: o.strict,
    });
  } catch (e) {
    io.err(
      `dbsi-conformance record: cannot listen on ${o.listen}: ` +
        `${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
    return 2;
  }
  const u = session.recorder.urls;
  io.out(`dbsi-conformance recorder: recording to ${out} (Ctrl-C stops and completes the HAR)`);
  io.out(
    `  point the client at:  baseUrl ${u.baseUrl}   authBaseUrl ` +
      `${u.authBaseUrl}   transfersBaseUrl ${u.transfersBaseUrl}`,
  );
  io.out(`  forwarding to:        ${config.baseUrl}   ${config.authBaseUrl}   ${config.transfersBaseUrl}`);
  const signal = await firstSignal();
  io.out(`dbsi-conformance recorder: ${signal}: finishing the exchanges in flight (those that ended are in the HAR)`);
  const n = await session.stop();
  io.out(
    `Recorded ${n} exchange${n === 1 ? '' : 's'} to ${out}. Judge them with: npm run ` +
      `conformance -- --traffic ${o.out} --config ${configPath}`,
  );
  return 0;
}

interface RecordOptions {
  listen: string;
  host: string;
  port: number;
  out: string;
  strict: boolean;
  configPath: string;
  config: ReturnType<typeof loadConfigFile>;
}

/** The options and the configuration, or the exit code of --help or a usage or configuration error. */
function recordOptions(argv: string[], env: NodeJS.ProcessEnv, io: Io): RecordOptions | number {
  let v;
  try {
    v = parseArgs({
      args: argv,
      options: {
        config: { type: 'string' },
        listen: { type: 'string', default: '127.0.0.1:8780' },
        out: { type: 'string', default: 'recorded.har' },
        strict: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values;
  } catch (e) {
    io.err(`dbsi-conformance record: ${(e as Error).message}\n\n${RECORD_USAGE}`);
    return 2;
  }
  if (v.help) {
    io.out(RECORD_USAGE);
    return 0;
  }
  const m = /^(.+):(\d{1,5})$/.exec(v.listen!);
  if (!m || Number(m[2]) > 65535) {
    io.err(`dbsi-conformance record: --listen must be HOST:PORT (e.g. 127.0.0.1:8780), not "${v.listen}"`);
    return 2;
  }
  const configPath = v.config ?? env.DBSI_CONFIG;
  if (!configPath) {
    io.err('dbsi-conformance record: --config FILE is required (the target whose traffic is recorded)');
    return 2;
  }
  try {
    const config = loadConfigFile(configPath, env, v.config ? '--config' : 'DBSI_CONFIG');
    const host = m[1]!.replace(/^\[|\]$/g, '');
    return { listen: v.listen!, host, port: Number(m[2]), out: v.out!, strict: !!v.strict, configPath, config };
  } catch (e) {
    io.err(
      `dbsi-conformance record: ` + `${e instanceof ConfigError ? 'configuration error: ' : ''}${(e as Error).message}`,
    );
    return 2;
  }
}

/**
 * Every exchange is in the HAR on disk as soon as it ends. The first signal finishes the exchanges in
 * flight; a later one leaves at once. A Ctrl-C reaches the recorder twice under npm run (from the
 * terminal and relayed by npm): a signal within a second of the first is that same one.
 */
function firstSignal(): Promise<string> {
  let first: number | undefined;
  return new Promise<string>((done) => {
    const on = (name: string) => () => {
      if (first === undefined) {
        first = Date.now();
        done(name);
      } else if (Date.now() - first > 1_000) process.exit(0);
    };
    process.on('SIGINT', on('SIGINT'));
    process.on('SIGTERM', on('SIGTERM'));
  });
}
