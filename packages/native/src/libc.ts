// The C library, for the system calls Node has no API for (xattrs, renameat2): opened here so
// that one package decides where every piece of native code comes from. glibc's soname on Linux.
import { type Koffi, koffi } from './koffi.js';

type LibraryHandle = Koffi.LibraryHandle;

const LIBC = 'libc.so.6';
let handle: LibraryHandle | undefined;

/** The process's C library (opened once). */
export function libc(): LibraryHandle {
  handle ??= koffi.load(LIBC);
  return handle;
}

/** errno as the last call through koffi on this thread left it (positive, as C has it). */
export function lastErrno(): number {
  return koffi.errno();
}
