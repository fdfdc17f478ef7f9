// A named temp file in `<bucket>/.sgwtmp`, published by rename. This is the fallback the layout
// allows: the preferred O_TMPFILE + linkat publish needs a native call Node lacks. Invariants:
// a temp file is either published (renamed onto its key) or discarded (unlinked) before the
// request ends, and a reader sees the old object or the new one, never a partial one. Names are
// `<owner>.<random>` (fs/owner.ts), so a gateway starting on a shared tree removes only the
// temp files of dead processes (stale-temps.ts).
// Confinement (confine.ts) is checked once, on the temp directory, when the file is created: the
// file's own name is new and `O_CREAT|O_EXCL` never follows a link in the last component, and
// later uses (rename, unlink) reuse that checked path instead of resolving it again.
import { fstatSync } from 'node:fs';
import { mkdir, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { S3Error, s3ErrorFromErrno } from '@vgwrdma/backend-contract';
import type { MetaStore } from '../meta/store.js';
import { backoff, makeParents } from './dirs.js';
import { isErrno } from './errors.js';
import { exchangeOntoFile } from './exchange.js';
import { FdFile } from './fd-file.js';
import type { FileOwner } from './file-owner.js';
import { holdReplaced } from './hold-replaced.js';
import { abs, type Layout, tmpRel } from './layout.js';
import { tempName } from './temp-name.js';

const PUBLISH_ATTEMPTS = 10;

interface PublishOptions {
  /**
   * Large objects: when the target is a file, exchange the names (exchange.ts: no writeback inside
   * the call) and free the replaced file after the request; where that cannot be done, keep its
   * blocks from being freed inside the rename (hold-replaced.ts).
   */
  holdReplaced?: boolean;
}

/** Mode of new object files unless --file-perms says otherwise. */
export const DEFAULT_FILE_PERMS = 0o644;

export class TempFile {
  private closed = false;
  private done = false;
  /** An adopted file (adopt()): discard() closes it and leaves the file where it is. */
  private keep = false;

  private constructor(
    private readonly layout: Layout,
    private readonly meta: MetaStore,
    readonly rel: string,
    /** Absolute path of the temp file, under a temp directory checked by confine(). */
    readonly path: string,
    readonly fh: FdFile,
    /** --chuid/--chgid: the owner of the file and of the parent directories publish() makes. */
    private readonly owner?: FileOwner,
  ) {}

  /**
   * Opens a new temp file for `bucket`, creating `.sgwtmp` when needed. Its mode is `filePerms`
   * exactly: a mode other than the default is set with fchmod, past the process umask.
   */
  static async create(
    layout: Layout,
    meta: MetaStore,
    bucket: string,
    dirPerms: number,
    filePerms = DEFAULT_FILE_PERMS,
    owner?: FileOwner,
  ): Promise<TempFile> {
    const dir = tmpRel(bucket);
    const name = tempName();
    const rel = `${dir}/${name}`;
    for (let attempt = 0; ; attempt++) {
      const path = join(abs(layout, dir), name);
      try {
        const fh = await FdFile.open(path, 'wx', filePerms);
        if (filePerms !== DEFAULT_FILE_PERMS || owner) {
          try {
            if (filePerms !== DEFAULT_FILE_PERMS) await fh.chmod(filePerms);
            if (owner) await fh.chown(owner.uid, owner.gid);
          } catch (err) {
            await fh.close();
            await unlink(path).catch(() => {});
            throw err;
          }
        }
        return new TempFile(layout, meta, rel, path, fh, owner);
      } catch (err) {
        if (!isErrno(err, 'ENOENT') || attempt > 2) throw s3ErrorFromErrno(err) ?? err;
        await mkdir(abs(layout, dir), { recursive: true, mode: dirPerms });
      }
    }
  }

  /**
   * An existing file `rel`, open as `fh`, handled as a temp file: its attributes are set and it
   * is published like one, but discard() only closes it (the file stays, its owner's to remove).
   * Multipart's in-place assembly file (multipart/in-place.ts) is published this way.
   */
  static adopt(layout: Layout, meta: MetaStore, rel: string, fh: FdFile, owner?: FileOwner): TempFile {
    const file = new TempFile(layout, meta, rel, abs(layout, rel), fh, owner);
    file.keep = true;
    return file;
  }

  get fd(): number {
    return this.fh.fd;
  }

  /**
   * The file's modification time, read through its fd while it is open: the data is complete,
   * and neither attributes nor the rename change it, so it is the published object's mtime.
   * fstat on an open fd does no path lookup and no I/O, so it runs inline rather than taking a
   * thread-pool round trip.
   */
  mtime(): Date {
    if (this.closed) throw new Error('TempFile.mtime: the file is closed');
    return fstatSync(this.fh.fd).mtime;
  }

  /** Sets an attribute on the temp file (through its fd where the store can). */
  async setAttr(attr: string, value: Buffer | string): Promise<void> {
    await this.meta.set(this.rel, attr, value, this.closed ? undefined : this.fh.fd);
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.fh.close();
  }

  /**
   * Renames the temp file onto `targetRel` (last writer wins). Parents are created with
   * dirPerms; if one is removed concurrently (a delete pruning empty dirs), the rename is retried.
   * With `createParents` false a missing parent is the caller's error (ENOENT): parts must not
   * recreate an upload directory that was aborted or completed meanwhile.
   */
  async publish(
    targetRel: string,
    dirPerms: number,
    createParents = true,
    opts: PublishOptions = {},
  ): Promise<void> {
    this.meta.admit?.(targetRel);
    await this.close();
    const target = abs(this.layout, targetRel);
    const from = this.path;
    if (opts.holdReplaced && (await exchangeOntoFile(from, target))) {
      this.done = true;
      unlink(from).catch(() => undefined); // the replaced object, freed off the critical path
      await this.meta.moved(this.rel, targetRel);
      return;
    }
    const dropHeld = opts.holdReplaced ? await holdReplaced(target, from) : undefined;
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await rename(from, target);
          break;
        } catch (err) {
          if (isErrno(err, 'EISDIR', 'ENOTEMPTY', 'EEXIST')) throw new S3Error('ExistingObjectIsDirectory');
          if (isErrno(err, 'ENOTDIR')) throw new S3Error('ObjectParentIsFile');
          if (!isErrno(err, 'ENOENT') || !createParents || attempt >= PUBLISH_ATTEMPTS) throw err;
          await makeParents(this.layout, targetRel, dirPerms, this.owner);
          if (attempt > 0) await backoff(attempt);
        }
      }
    } finally {
      dropHeld?.();
    }
    this.done = true;
    await this.meta.moved(this.rel, targetRel);
  }

  /** Removes the temp file unless it was published. Safe to call more than once. */
  async discard(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await this.close().catch(() => undefined);
    if (this.keep) return;
    await unlink(this.path).catch(() => undefined);
    await this.meta.dropped(this.rel).catch(() => undefined);
  }
}
