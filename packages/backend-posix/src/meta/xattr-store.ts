// MetaStore on user.* extended attributes: the versitygw layout. Attributes live on the inode,
// so they are published together with the data by the rename, and vanish with it.
import { join } from 'node:path';
import { XATTR_PREFIX } from './attr-names.js';
import { xattrGet, xattrGetFd, xattrList, xattrRemove, xattrSet, xattrSetFdAsync } from './libc-xattr.js';
import type { MetaStore } from './store.js';

export class XattrStore implements MetaStore {
  readonly kind = 'xattr';
  constructor(private readonly root: string) {}

  async get(rel: string, attr: string, fd?: number): Promise<Buffer | undefined> {
    const name = XATTR_PREFIX + attr;
    return fd === undefined ? xattrGet(join(this.root, rel), name) : xattrGetFd(fd, name);
  }

  async set(rel: string, attr: string, value: Buffer | string, fd?: number): Promise<void> {
    const buf = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    const name = XATTR_PREFIX + attr;
    if (fd === undefined) xattrSet(join(this.root, rel), name, buf);
    else await xattrSetFdAsync(fd, name, buf); // off the event loop: a journaled update
  }

  async remove(rel: string, attr: string): Promise<void> {
    xattrRemove(join(this.root, rel), XATTR_PREFIX + attr);
  }

  async list(rel: string): Promise<string[]> {
    return xattrList(join(this.root, rel))
      .filter((n) => n.startsWith(XATTR_PREFIX))
      .map((n) => n.slice(XATTR_PREFIX.length));
  }

  async moved(): Promise<void> {}
  async dropped(): Promise<void> {}
  async movedTree(): Promise<void> {}
  async droppedTree(): Promise<void> {}
}
