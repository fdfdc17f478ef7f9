// The --access-log FILE itself: opened for appending with O_NOFOLLOW and created mode 0640 (less
// what the umask takes), so the log is never world-readable and a symbolic link planted at its
// path is refused — naming the path — instead of followed (the gateway would append to, or create,
// whatever file the link points at). Only a regular file is accepted (a FIFO would stall the
// start, a device is no log). reopen() (SIGHUP, after logrotate moved the file away) opens the
// path again under the same rules; a failed reopen keeps writing to the open file. Writes are
// synchronous, one write per line, as pino's sync destination made them.
import { closeSync, constants, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { StartupError } from '@vgwrdma/errors';

/** Created log files: owner read/write, group read (an ingester's group), nothing for others. */
export const ACCESS_LOG_MODE = 0o640;
/** Directories created on the way to it. */
const ACCESS_LOG_DIR_MODE = 0o750;
const FLAGS =
  constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Opens `path` under the rules above; a refusal is a StartupError naming the path and why. */
export function openAccessLogFile(path: string): number {
  let fd: number;
  try {
    mkdirSync(dirname(path), { recursive: true, mode: ACCESS_LOG_DIR_MODE });
    fd = openSync(path, FLAGS, ACCESS_LOG_MODE);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP')
      throw new StartupError(
        `--access-log ${path} is a symbolic link; refusing to follow it (give the path of a regular file)`,
        { cause: error },
      );
    throw new StartupError(`cannot open --access-log ${path}: ${(error as Error).message}`, { cause: error });
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new StartupError(`--access-log ${path} is not a regular file`);
  }
  return fd;
}

export class AccessLogFile {
  private fd: number;
  private failed = false;

  /** `onWriteError` hears the first failed write after each good one (disk full, I/O error). */
  constructor(
    readonly path: string,
    private readonly onWriteError: (error: Error) => void,
  ) {
    this.fd = openAccessLogFile(path);
  }

  /** Appends `text`; a failure drops the line (an observer must not throw) and is reported. */
  write(text: string): void {
    try {
      const bytes = Buffer.from(text, 'utf8');
      let done = 0;
      while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done);
      this.failed = false;
    } catch (error) {
      if (!this.failed) this.onWriteError(error as Error);
      this.failed = true;
    }
  }

  /** Opens the path again (the same rules as at start-up), then closes the old descriptor. */
  reopen(): void {
    const next = openAccessLogFile(this.path);
    const old = this.fd;
    this.fd = next;
    closeSync(old);
  }

  close(): void {
    closeSync(this.fd);
  }
}
