// A failed libc call (made through @vgwrdma/native), as the Node-style error the rest of the backend expects
// (`code` = the errno's name, `errno` negative, `syscall`, `path`): isErrno and mapObjectError
// treat it like an error from node:fs.
import { constants } from 'node:os';

const ERRNO_NAMES = new Map<number, string>(Object.entries(constants.errno).map(([name, n]) => [n, name]));

export interface ErrnoError extends Error {
  code: string;
  errno: number;
  syscall: string;
  path?: string;
}

/** The error for `errno` (positive, as C has it) from `syscall` on a path or a descriptor. */
export function errnoError(errno: number, syscall: string, target: string | number): ErrnoError {
  const code = ERRNO_NAMES.get(errno) ?? `E${errno}`;
  const where = typeof target === 'number' ? `fd ${target}` : target;
  const err = new Error(`${code}: ${syscall} ${where}`) as ErrnoError;
  err.code = code;
  err.errno = -errno;
  err.syscall = syscall;
  if (typeof target === 'string') err.path = target;
  return err;
}
