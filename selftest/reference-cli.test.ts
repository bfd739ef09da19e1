import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './_cli';
import { joined } from './_regex';
import { runMain } from './_main';

/** npm run reference as a user runs it: --help, bad values refused with one message, and what it prints to explore it
 * with curl. */
function reference(args: string[], until?: RegExp): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'bin/reference.ts'), ...args],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      if (until?.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
  });
}

const noStackTrace = (s: string) => expect(s).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe.concurrent('npm run reference', () => {
  test('--help prints the usage and exits 0', async () => {
    const r = await reference(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: npm run reference -- [options]');
    expect(r.stdout).toContain('--latency MS');
    expect(r.stdout).toContain('--throttle N');
  });

  test('a bad --latency, --throttle, --port, --fixtures or unknown option: exit 2, one message, no trace', async () => {
    const bad = [
      [['--latency', 'abc'], '--latency must be a number of milliseconds, not "abc"'],
      [['--throttle', '0'], '--throttle must be a whole number of requests per second from 1, not "0"'],
      [['--port', 'abc'], '--port must be a whole number from 0 to 65535, not "abc"'],
      [['--port', '70000'], '--port must be a whole number from 0 to 65535, not "70000"'],
      [['--fixtures', 'nope'], 'unknown fixture set "nope"'],
      [['--nope'], "Unknown option '--nope'"],
    ] as const;
    // Side by side: each is a process of its own.
    const runs = await Promise.all(bad.map(([args]) => reference([...args])));
    for (const [i, [args, message]] of bad.entries()) {
      const r = runs[i]!;
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toContain(message);
      noStackTrace(r.stderr);
    }
  });

  test('prints its URLs, the credentials it accepts and a curl line that works against it', async () => {
    const r = await reference([], /Try:\n.*\n/);
    expect(r.stdout).toMatch(/baseUrl: +http:\/\/127\.0\.0\.1:\d+\/dbsi/);
    expect(r.stdout).toMatch(/export DBSI_BEARER_TOKEN=\S+ DBSI_TRANSFERS_TOKEN=\S+/);
    expect(r.stdout).toMatch(/export DBSI_REVOCATION_CLIENT_ID=\S+ DBSI_REVOCATION_CLIENT_SECRET=\S+/);
    expect(r.stdout).toMatch(
      joined(
        '',
        /curl -sS -i 'http:\/\/127\.0\.0\.1:\d+\/dbsi\/db-disclosures\/v1\/institution-disclosures' -H /,
        /"Authorization: Bearer \$DBSI_BEARER_TOKEN"/,
      ),
    );
  });

  test('the printed credentials and curl line are answered 200 by a running reference target', async () => {
    // Started and asked from this test: the curl line's request, made with fetch while the target runs.
    let answered: number | undefined;
    await new Promise<void>((resolve) => {
      const child = spawn(
        process.execPath,
        [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'bin/reference.ts')],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const killer = setTimeout(() => child.kill('SIGKILL'), 90_000);
      let out = '';
      child.stdout.on('data', async (d) => {
        out += d;
        const url = /curl -sS -i '([^']+)'/.exec(out)?.[1];
        const token = /DBSI_BEARER_TOKEN=(\S+)/.exec(out)?.[1];
        if (!url || !token || answered !== undefined) return;
        answered = 0;
        const res = await fetch(url, {
          headers: {
            Authorization: `Bearer ${token}`,
            TransactionId: '1',
            callingAppId: 'curl',
            InstitutionId: /InstitutionId: (\w+)'/.exec(out)![1]!,
          },
        });
        answered = res.status;
        child.kill('SIGTERM');
      });
      child.on('close', () => {
        clearTimeout(killer);
        resolve();
      });
    });
    expect(answered).toBe(200);
  });

  test('prints a configuration that, saved with the exported credentials, runs conformant against it', async () => {
    let run: Awaited<ReturnType<typeof runMain>> | undefined;
    await new Promise<void>((resolve) => {
      const child = spawn(
        process.execPath,
        [join(ROOT, 'node_modules/tsx/dist/cli.mjs'), join(ROOT, 'bin/reference.ts')],
        { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      const killer = setTimeout(() => child.kill('SIGKILL'), 110_000);
      let out = '';
      child.stdout.on('data', async (d) => {
        out += d;
        if (!/Try:/.test(out) || run !== undefined) return;
        const block = /A configuration for it[^\n]*\n(\{[\s\S]*?\n\})\n/.exec(out)![1]!;
        const env = Object.fromEntries([...out.matchAll(/(DBSI_[A-Z_]+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
        run = await runMain(['--quiet'], { raw: JSON.parse(block), env, timeoutMs: 100_000 });
        child.kill('SIGTERM');
      });
      child.on('close', () => {
        clearTimeout(killer);
        resolve();
      });
    });
    expect(run?.code, run?.stdout).toBe(0);
    expect(run?.stdout).toMatch(/Verdict: conformant \(exit 0\)/);
  });
});
