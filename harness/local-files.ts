import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/**
 * Local input checked before anything is sent: files the suite reads (the configuration, TLS
 * files) and the folder it writes to. Every check is a bounded number of system calls: a FIFO, a
 * device, a huge file or a pseudo file system gives one message naming the option, never a hang.
 */

/** A local file or folder that cannot be used; `subject` is the option or key that named it. */
/** Why the file system refused, in words where the code has them. */
const refusal = (code: string | undefined) =>
  code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EROFS' ? 'read-only file system' : code;

export class LocalFileError extends Error {
  override name = 'LocalFileError';
  constructor(
    readonly subject: string,
    message: string,
  ) {
    super(`${subject}: ${message}`);
  }
}

/**
 * The folder the person ran the command from, against which the relative paths they give are taken. npm runs a
 * package's scripts from the package root (`cd suites && npm run conformance` runs in the root) and passes the
 * folder it was run from as INIT_CWD; without it (the command run directly), the current folder.
 */
export function userCwd(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.INIT_CWD;
  return dir && isAbsolute(dir) ? dir : process.cwd();
}

/** A path as messages show it: a relative one with the folder it was taken from, when that is given. */
function shownPath(path: string, from: string | undefined): string {
  return from === undefined || isAbsolute(path) ? path : `${path} (in ${from})`;
}

/** The configuration file and TLS files are small: anything larger is a mistake (e.g. /dev/zero, a log file). */
export const MAX_INPUT_FILE_BYTES = 1024 * 1024;

function kind(st: Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

const reason = (e: unknown) => {
  const code = (e as NodeJS.ErrnoException)?.code;
  return code === 'ENOENT'
    ? 'does not exist'
    : code === 'EACCES' || code === 'EPERM'
      ? 'cannot be read (permission denied)'
      : code === 'ENOTDIR'
        ? 'does not exist (a part of the path is a file)'
        : code === 'ELOOP'
          ? 'is a symbolic link loop'
          : `cannot be read (${code ?? (e as Error)?.message})`;
};

/**
 * Read a regular file of at most `maxBytes`. Opened without blocking (a FIFO with no writer would
 * otherwise wait forever), then checked on the open descriptor, then read up to the limit only.
 * A relative path is taken from `from` when given (and a message names that folder), else from the current one.
 */
export function readRegularFile(path: string, subject: string, maxBytes = MAX_INPUT_FILE_BYTES, from?: string): Buffer {
  let fd: number;
  const shown = shownPath(path, from);
  try {
    const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);
    fd = openSync(from === undefined ? path : resolve(from, path), flags);
  } catch (e) {
    throw new LocalFileError(subject, `${shown} ${reason(e)}`);
  }
  path = shown;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new LocalFileError(subject, `${path} is ${kind(st)}, not a regular file`);
    if (st.size > maxBytes)
      throw new LocalFileError(
        subject,
        `${path} is ${st.size} bytes, larger than the ${maxBytes} ` + `bytes a file of this kind may have`,
      );
    // Read at most one byte more than allowed: a file that grows while it is read is refused too.
    const buf = Buffer.alloc(maxBytes + 1);
    let n = 0;
    for (let i = 0; i <= maxBytes + 1 && n <= maxBytes; i++) {
      let got: number;
      try {
        got = readSync(fd, buf, n, buf.length - n, null);
      } catch (e) {
        throw new LocalFileError(subject, `${path} ${reason(e)}`);
      }
      if (got === 0) break;
      n += got;
    }
    if (n > maxBytes)
      throw new LocalFileError(
        subject,
        `${path} is larger than the ${maxBytes} bytes a ` + `file of this kind may have`,
      );
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * Make sure the reports folder exists (created if missing) and that files can be written in it.
 * Missing folders are created one level at a time (no recursive mkdir, which never returns on some
 * pseudo file systems), and a file is written and removed to prove the folder writable. A relative path is
 * taken from `from` when given (and a message names that folder), else from the current one. Returns the
 * absolute path.
 */
export function prepareReportsDir(path: string, subject = '--reports', from?: string): string {
  if (path.trim() === '') throw new LocalFileError(subject, 'names no folder (an empty path)');
  const abs = from === undefined ? resolve(path) : resolve(from, path);
  path = shownPath(path, from);
  const missing: string[] = [];
  let existing = abs;
  // Walk up to the nearest part of the path that exists (bounded by the path's depth).
  for (let depth = 0; depth < 4096; depth++) {
    try {
      const st = statSync(existing);
      if (!st.isDirectory())
        throw new LocalFileError(
          subject,
          `${existing === abs ? path : `${path}: ${existing}`} is ` +
            `${st.isFile() ? 'a file' : kind(st)}, not a directory`,
        );
      break;
    } catch (e) {
      if (e instanceof LocalFileError) throw e;
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT')
        throw new LocalFileError(
          subject,
          `${path} cannot be used ` +
            `(${code === 'ENOTDIR' ? 'a part of the path is a file' : code === 'EACCES' ? 'permission denied' : code})`,
        );
      const parent = dirname(existing);
      if (parent === existing) throw new LocalFileError(subject, `${path} cannot be created`);
      missing.unshift(existing);
      existing = parent;
    }
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      throw new LocalFileError(
        subject,
        `${path} cannot be created ` +
          `(${code === 'ENOENT' ? `${dirname(dir)} does not accept new folders` : refusal(code)})`,
      );
    }
  }
  const probe = join(abs, `.dbsi-write-check-${process.pid}`);
  try {
    writeFileSync(probe, '', { flag: 'wx' });
    rmSync(probe, { force: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new LocalFileError(subject, `${path} is not writable ` + `(${refusal(code)})`);
  }
  return abs;
}
