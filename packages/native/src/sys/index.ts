// Typed libc calls for the system calls Node has no API for (the POSIX backend's statx, inline
// reads, copy_file_range, renameat2, fallocate's preallocation and hole punching and xattrs): declared here, on this package's one koffi, so no
// other package declares native functions of libc. Each is declared on first use, once.
export { AT_FDCWD } from './constants.js';
export { type CopyFileRangeCall, copyFileRangeCall } from './copy-file-range.js';
export { type FallocateFn, preallocateCall, punchHoleCall } from './fallocate.js';
export { type InlineReadCalls, inlineReadCalls } from './inline-read.js';
export { type MemCopyFn, memCopyCall } from './mem-copy.js';
export { RENAME_EXCHANGE, type Renameat2Fn, renameat2Call } from './renameat2.js';
export { type StatxFn, statxCall } from './statx.js';
export { type XattrCalls, xattrCalls } from './xattr.js';
