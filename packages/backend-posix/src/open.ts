// Opening a tree: choose the metadata store, prove xattrs work on the root (refusing to start
// otherwise, with a hint). Clearing what a crash left in `<bucket>/.sgwtmp` is fs/stale-temps.ts.
import { mkdir } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import type { EtagMode } from '@vgwrdma/backend-contract';
import { InvalidArgumentError, VgwrdmaError } from '@vgwrdma/errors';
import { XATTR_PREFIX } from './meta/attr-names.js';
import { xattrGet, xattrRemove, xattrSet } from './meta/libc-xattr.js';
import { NoMetaStore } from './meta/none-store.js';
import { migrateSidecar } from './meta/sidecar-migrate.js';
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
  /** Mode of new object files (default 0o644), set exactly, whatever the process umask. */
  filePerms?: number;
  /**
   * versitygw's --chuid / --chgid: new object files and the directories made for them belong to
   * the requesting account's userID / groupID (users.json). Needs the privilege to chown.
   */
  chownUid?: boolean;
  chownGid?: boolean;
  /**
   * versitygw's --bucketlinks: a symlink at the top of the root that leads to a directory is a
   * bucket. Every path inside it must resolve inside the link's target (AccessDenied otherwise).
   */
  bucketLinks?: boolean;
  /** Answered by HeadBucket (default us-east-1). */
  region?: string;
  /**
   * Keep non-current object versions here (--versioning-dir); without it bucket versioning
   * answers VersioningNotConfigured. Created when missing; must not lie inside the root.
   */
  versioningDir?: string;
  /**
   * At open, temp files and multipart claims of unknown or foreign ownership are removed only
   * once this old (ms since their last change; default 1 hour); a dead process's of this host
   * go at once. Gateways sharing a tree must not write one file for longer without a pause.
   */
  staleTempAgeMs?: number;
  /**
   * How a single PUT's ETag is computed (--etag-mode; default the whole body's MD5). `parts`
   * hashes fixed-size parts at once and gives bodies of more than one part S3's multipart form
   * (docs/architecture.md, "ETag modes").
   */
  etagMode?: EtagMode;
}

/** The root's filesystem does not keep user.* extended attributes. */
export class XattrUnsupportedError extends VgwrdmaError<'VGW_ERR_POSIX_XATTR_UNSUPPORTED'> {
  override readonly name = 'XattrUnsupportedError';
  readonly root: string;
  constructor(root: string, cause: unknown) {
    super(
      'VGW_ERR_POSIX_XATTR_UNSUPPORTED',
      `The filesystem of ${root} does not support user.* extended attributes ` +
        `(${(cause as Error)?.message ?? String(cause)}). ` +
        'Mount it with user_xattr, or keep metadata beside it with --sidecar DIR (or drop it with --nometa).',
      { cause },
    );
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
    await migrateSidecar(root, sidecar);
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
    throw new InvalidArgumentError(
      `the versioning directory ${dir} must not be inside the gateway root ${root}`,
    );
  }
  await mkdir(dir, { recursive: true, mode: opts.dirPerms ?? 0o755 });
  if (opts.nometa) return { root: dir, meta: new NoMetaStore() };
  // Bucket names cannot start with '.', so this subtree cannot meet a bucket's sidecar files.
  if (opts.sidecar !== undefined)
    return { root: dir, meta: new SidecarStore(join(resolve(opts.sidecar), '.versions')) };
  probeXattrs(dir);
  return { root: dir, meta: new XattrStore(dir, root) };
}
