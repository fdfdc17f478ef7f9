// libc's extended-attribute calls (Node has no xattr API), synchronous on the calling thread.
// Each returns what libc returned: a size or 0, or -1 with errno (lastErrno()). A null value
// buffer with size 0 asks for the size. koffi has no ssize_t: intptr_t is the same on Linux.
import { libc } from '../libc.js';
import { declareOnce } from './once.js';

export interface XattrCalls {
  getxattr(path: string, name: string, value: Uint8Array | null, size: number): number;
  fgetxattr(fd: number, name: string, value: Uint8Array | null, size: number): number;
  setxattr(path: string, name: string, value: Uint8Array, size: number, flags: number): number;
  fsetxattr(fd: number, name: string, value: Uint8Array, size: number, flags: number): number;
  listxattr(path: string, list: Uint8Array | null, size: number): number;
  removexattr(path: string, name: string): number;
}

/** The calls (throws where libc cannot be opened or lacks them). */
export const xattrCalls: () => XattrCalls = declareOnce(() => {
  const c = libc();
  const getxattr = c.func('intptr_t getxattr(const char *path, const char *name, void *value, size_t size)');
  const fgetxattr = c.func('intptr_t fgetxattr(int fd, const char *name, void *value, size_t size)');
  const setxattr = c.func(
    'int setxattr(const char *path, const char *name, const void *value, size_t size, int flags)',
  );
  const fsetxattr = c.func(
    'int fsetxattr(int fd, const char *name, const void *value, size_t size, int flags)',
  );
  const listxattr = c.func('intptr_t listxattr(const char *path, void *list, size_t size)');
  const removexattr = c.func('int removexattr(const char *path, const char *name)');
  return {
    getxattr: (path, name, value, size) => Number(getxattr(path, name, value, size)),
    fgetxattr: (fd, name, value, size) => Number(fgetxattr(fd, name, value, size)),
    setxattr: (path, name, value, size, flags) => setxattr(path, name, value, size, flags) as number,
    fsetxattr: (fd, name, value, size, flags) => fsetxattr(fd, name, value, size, flags) as number,
    listxattr: (path, list, size) => Number(listxattr(path, list, size)),
    removexattr: (path, name) => removexattr(path, name) as number,
  };
});
