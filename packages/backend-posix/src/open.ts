// Opening a tree: choose the metadata store, prove xattrs work on the root (refusing to start
// otherwise, with a hint), and clear temp files a crash or kill left in `<bucket>/.sgwtmp`.
import type { Dirent } from 'node:fs';
import { mkdir, readdir, rename, rm, unlink } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { isErrno } from './fs/errors.js';
import { MULTIPART_DIR, TMP_DIR } from './fs/layout.js';
import { XATTR_PREFIX } from './meta/attr-names.js';
import { xattrGet, xattrRemove, xattrSet } from './meta/libc-xattr.js';
import { NoMetaStore } from './meta/none-store.js';
import { SidecarStore } from './meta/sidecar-store.js';
import type { MetaStore } from './meta/store.js';
import { XattrStore } from './meta/xattr-store.js';
import type { VersionStore } from './versioning/version-store.js';

export interface PosixBackendOptions {
  /** The gateway root: one directory per bucket. Created when missing. */
  root: string;
  /** Keep attributes as files under this directory instead of xattrs (--sidecar DIR). */
  sidecar?: string;
  /** Keep no attributes at all (--nometa). */
  nometa?: boolean;
  /** Mode of directories created for buckets and key parents (default 0o755). */
  dirPerms?: number;
  /** Answered by HeadBucket (default us-east-1). */
  region?: string;
  /**
   * Keep non-current object versions here (--versioning-dir); without it bucket versioning
   * answers VersioningNotConfigured. Created when missing; must not lie inside the root.
   */
  versioningDir?: string;
}

/** The root's filesystem does not keep user.* extended attributes. */
export class XattrUnsupportedError extends Error {
  readonly root: string;
  constructor(root: string, cause: unknown) {
    super(
      `The filesystem of ${root} does not support user.* extended attributes ` +
        `(${(cause as Error)?.message ?? String(cause)}). ` +
        'Mount it with user_xattr, or keep metadata beside it with --sidecar DIR (or drop it with --nometa).',
      { cause },
    );
    this.name = 'XattrUnsupportedError';
    this.root = root;
  }
}

const PROBE_ATTR = `${XATTR_PREFIX}vgwrdma.probe`;

/** Sets, reads back and removes a probe attribute on `root`; XattrUnsupportedError if any step fails. */
export function probeXattrs(root: string): void {
  try {
    const value = Buffer.from(`probe-${process.pid}`);
    xattrSet(root, PROBE_ATTR, value);
    const back = xattrGet(root, PROBE_ATTR);
    if (!back?.equals(value)) throw new Error('the probe attribute did not read back');
    xattrRemove(root, PROBE_ATTR);
  } catch (err) {
    throw new XattrUnsupportedError(root, err);
  }
}

export async function openStore(opts: PosixBackendOptions): Promise<{ root: string; meta: MetaStore }> {
  const root = resolve(opts.root);
  await mkdir(root, { recursive: true, mode: opts.dirPerms ?? 0o755 });
  if (opts.nometa) return { root, meta: new NoMetaStore() };
  if (opts.sidecar !== undefined) {
    const sidecar = resolve(opts.sidecar);
    await mkdir(sidecar, { recursive: true });
    return { root, meta: new SidecarStore(sidecar) };
  }
  probeXattrs(root);
  return { root, meta: new XattrStore(root) };
}

/** The versioning directory and the store for its attributes (the same kind as the root's). */
export async function openVersionStore(
  root: string,
  opts: PosixBackendOptions,
): Promise<VersionStore | undefined> {
  if (opts.versioningDir === undefined) return undefined;
  const dir = resolve(opts.versioningDir);
  const rel = relative(root, dir);
  if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) {
    throw new Error(`the versioning directory ${dir} must not be inside the gateway root ${root}`);
  }
  await mkdir(dir, { recursive: true, mode: opts.dirPerms ?? 0o755 });
  if (opts.nometa) return { root: dir, meta: new NoMetaStore() };
  // Bucket names cannot start with '.', so this subtree cannot meet a bucket's sidecar files.
  if (opts.sidecar !== undefined)
    return { root: dir, meta: new SidecarStore(join(resolve(opts.sidecar), '.versions')) };
  probeXattrs(dir);
  return { root: dir, meta: new XattrStore(dir) };
}

/**
 * Removes the top-level files of every `<bucket>/.sgwtmp`: temp files of writes that never
 * finished. Multipart upload directories are kept: they are live until aborted or completed;
 * uploads a dead process left claimed are released. Returns how many temp files were removed.
 */
export async function cleanStaleTemps(root: string, meta: MetaStore): Promise<number> {
  let removed = 0;
  for (const b of await readdir(root, { withFileTypes: true })) {
    if (!b.isDirectory() || b.name.startsWith('.')) continue;
    let entries: Dirent[];
    try {
      entries = await readdir(join(root, b.name, TMP_DIR), { withFileTypes: true });
    } catch (err) {
      if (isErrno(err, 'ENOENT', 'ENOTDIR')) continue;
      throw err;
    }
    await releaseStaleClaims(root, meta, join(b.name, TMP_DIR, MULTIPART_DIR));
    for (const e of entries) {
      if (e.isDirectory()) continue;
      await unlink(join(root, b.name, TMP_DIR, e.name)).catch(() => undefined);
      await meta.dropped(`${b.name}/${TMP_DIR}/${e.name}`).catch(() => undefined);
      removed++;
    }
  }
  return removed;
}

const CLAIM_RE = /^([A-Za-z0-9_-]+)\.[^/]+\.inprogress$/;
const ABORTING_RE = /^[A-Za-z0-9_-]+\.aborting$/;

/**
 * A complete or abort that died midway leaves its upload renamed. A claim
 * (`<id>.<etag>.inprogress`) is given back to `<id>`, so the upload can be completed or aborted
 * again (a waiting complete would otherwise wait forever); an `.aborting` directory is removed.
 */
async function releaseStaleClaims(root: string, meta: MetaStore, multipartRel: string): Promise<void> {
  let hashes: string[];
  try {
    hashes = await readdir(join(root, multipartRel));
  } catch {
    return;
  }
  for (const hash of hashes) {
    const hashRel = `${multipartRel}/${hash}`;
    let names: string[];
    try {
      names = await readdir(join(root, hashRel));
    } catch {
      continue;
    }
    for (const name of names) {
      const rel = `${hashRel}/${name}`;
      const claim = CLAIM_RE.exec(name);
      if (claim?.[1] && !names.includes(claim[1])) {
        const back = `${hashRel}/${claim[1]}`;
        await rename(join(root, rel), join(root, back)).catch(() => undefined);
        await meta.movedTree(rel, back).catch(() => undefined);
      } else if (claim || ABORTING_RE.test(name)) {
        await rm(join(root, rel), { recursive: true, force: true });
        await meta.droppedTree(rel).catch(() => undefined);
      }
    }
  }
}
