// MetaStore on user.* extended attributes: the versitygw layout. Attributes live on the inode,
// so they are published together with the data by the rename, and vanish with it. A value the
// filesystem cannot hold (xattr-fit.ts) is, for a bucket, kept in a file the xattr points to
// (xattr-overflow.ts), for an object's tag set likewise (object-overflow.ts: the tags, or the
// tags already set when another attribute then does not fit beside them), and for anything else
// refused with MetadataTooLarge (400), never a 5xx.
import { join } from 'node:path';
import { ATTR, XATTR_PREFIX } from './attr-names.js';
import { xattrGet, xattrGetFd, xattrList, xattrRemove, xattrSet, xattrSetFd } from './libc-xattr.js';
import { bucketOfRel, isSpillable, resolveObjectOverflow, writeObjectOverflow } from './object-overflow.js';
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
  /**
   * `overflowRoot`: the gateway root, whose `<bucket>/.sgwtmp` holds objects' overflow files;
   * the versioning directory's store passes it so that archived versions read the same files.
   */
  constructor(
    private readonly root: string,
    private readonly overflowRoot: string = root,
  ) {}

  async get(rel: string, attr: string, fd?: number): Promise<Buffer | undefined> {
    const name = XATTR_PREFIX + attr;
    const v = fd === undefined ? xattrGet(join(this.root, rel), name) : xattrGetFd(fd, name);
    if (v === undefined) return v;
    if (!isBucketRel(rel)) return resolveObjectOverflow(this.overflowRoot, rel, attr, v);
    const hash = markedHash(v);
    return hash === undefined ? v : readOverflow(this.root, rel, attr, hash);
  }

  async set(rel: string, attr: string, value: Buffer | string, fd?: number): Promise<void> {
    const buf = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    if (isBucketRel(rel)) return this.setBucketAttr(rel, attr, buf);
    const path = join(this.root, rel);
    // inline: see libc-xattr.ts for why not the pool
    const put = (name: string, v: Buffer): void =>
      fd === undefined ? xattrSet(path, XATTR_PREFIX + name, v) : xattrSetFd(fd, XATTR_PREFIX + name, v);
    const get = (name: string): Buffer | undefined =>
      fd === undefined ? xattrGet(path, XATTR_PREFIX + name) : xattrGetFd(fd, XATTR_PREFIX + name);
    try {
      put(attr, buf);
      return;
    } catch (err) {
      if (!attrDoesNotFit(err, path)) throw err;
      try {
        await this.spill(rel, attr, buf, put, get);
      } catch (again) {
        throw attrDoesNotFit(again, path) ? attrsTooLarge(err) : again;
      }
    }
  }

  /**
   * After `attr` did not fit: a spillable attribute goes to its overflow file; any other is
   * retried once after the object's inline spillable attributes (its tags) moved out.
   */
  private async spill(
    rel: string,
    attr: string,
    value: Buffer,
    put: (name: string, v: Buffer) => void,
    get: (name: string) => Buffer | undefined,
  ): Promise<void> {
    const bucket = bucketOfRel(rel);
    if (isSpillable(attr)) {
      put(attr, await writeObjectOverflow(this.overflowRoot, bucket, attr, value));
      return;
    }
    let moved = false;
    for (const other of [ATTR.tagging]) {
      const inline = get(other);
      if (inline === undefined || markedHash(inline) !== undefined) continue;
      put(other, await writeObjectOverflow(this.overflowRoot, bucket, other, inline));
      moved = true;
    }
    if (!moved) throw Object.assign(new Error('attribute does not fit'), { code: 'E2BIG' });
    put(attr, value);
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
