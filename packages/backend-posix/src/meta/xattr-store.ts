// MetaStore on user.* extended attributes: the versitygw layout. Attributes live on the inode,
// so they are published together with the data by the rename, and vanish with it. A value the
// filesystem cannot hold (xattr-fit.ts) is, for a bucket, kept in a file the xattr points to
// (xattr-overflow.ts), and for anything else refused with MetadataTooLarge (400), never a 5xx.
import { join } from 'node:path';
import { XATTR_PREFIX } from './attr-names.js';
import { xattrGet, xattrGetFd, xattrList, xattrRemove, xattrSet, xattrSetFd } from './libc-xattr.js';
import type { MetaStore } from './store.js';
import { attrDoesNotFit, attrsTooLarge } from './xattr-fit.js';
import {
  dropOverflow,
  isBucketRel,
  markedHash,
  readOverflow,
  withBucketAttrLock,
  writeOverflow,
} from './xattr-overflow.js';

export class XattrStore implements MetaStore {
  readonly kind = 'xattr';
  constructor(private readonly root: string) {}

  async get(rel: string, attr: string, fd?: number): Promise<Buffer | undefined> {
    const name = XATTR_PREFIX + attr;
    const v = fd === undefined ? xattrGet(join(this.root, rel), name) : xattrGetFd(fd, name);
    const hash = v !== undefined && isBucketRel(rel) ? markedHash(v) : undefined;
    return hash === undefined ? v : readOverflow(this.root, rel, attr, hash);
  }

  async set(rel: string, attr: string, value: Buffer | string, fd?: number): Promise<void> {
    const buf = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    if (isBucketRel(rel)) return this.setBucketAttr(rel, attr, buf);
    const name = XATTR_PREFIX + attr;
    const path = join(this.root, rel);
    try {
      if (fd === undefined) xattrSet(path, name, buf);
      else xattrSetFd(fd, name, buf); // inline: see libc-xattr.ts for why not the pool
    } catch (err) {
      throw attrDoesNotFit(err, path) ? attrsTooLarge(err) : err;
    }
  }

  /** In the xattr when it fits, else in an overflow file the xattr names. */
  private setBucketAttr(bucket: string, attr: string, value: Buffer): Promise<void> {
    const path = join(this.root, bucket);
    const name = XATTR_PREFIX + attr;
    return withBucketAttrLock(bucket, attr, async () => {
      try {
        xattrSet(path, name, value);
        await dropOverflow(this.root, bucket, attr);
        return;
      } catch (err) {
        if (!attrDoesNotFit(err, path)) throw err;
      }
      const marker = await writeOverflow(this.root, bucket, attr, value);
      xattrSet(path, name, marker);
      await dropOverflow(this.root, bucket, attr, markedHash(marker));
    });
  }

  async remove(rel: string, attr: string): Promise<void> {
    if (!isBucketRel(rel)) return xattrRemove(join(this.root, rel), XATTR_PREFIX + attr);
    await withBucketAttrLock(rel, attr, async () => {
      xattrRemove(join(this.root, rel), XATTR_PREFIX + attr);
      await dropOverflow(this.root, rel, attr);
    });
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
