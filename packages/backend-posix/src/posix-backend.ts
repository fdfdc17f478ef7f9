// PosixBackend: the versitygw-compatible POSIX storage engine. Buckets are top-level
// directories, objects are files, metadata is user.* xattrs (or sidecar files, or nothing).
// This class opens the tree; its operations are the modules' functions of the tree, installed from
// the POSIX_OPS table (posix-ops.ts). Each module documents its part of the on-disk contract
// (docs/posix-layout.md).

import { installUpstreamOps, MD5_ETAG, UnsupportedBackend } from '@vgwrdma/backend-contract';
import { installNativeKernels } from '@vgwrdma/native/kernels';
import type { PosixEnv } from './env.js';
import { checkEtagMode } from './etag-mode.js';
import { cleanStaleTemps } from './fs/stale-temps.js';
import { DEFAULT_FILE_PERMS } from './fs/temp-file.js';
import type { MetaStoreKind } from './meta/store.js';
import { openStore, openVersionStore, type PosixBackendOptions } from './open.js';
import { POSIX_OPS } from './posix-ops.js';

export class PosixBackend extends UnsupportedBackend {
  override readonly name = 'posix';

  private constructor(private readonly env: PosixEnv) {
    super();
  }

  /**
   * Opens (and if needed creates) a tree; see PosixBackendOptions. Installs the native hashing
   * kernels first (installNativeKernels: idempotent), so an embedded backend hashes natively too;
   * a VGWRDMA_SHIM_DIR without the library fails here, with NativeLoadError.
   */
  static async open(opts: PosixBackendOptions): Promise<PosixBackend> {
    installNativeKernels();
    const { root, meta } = await openStore(opts);
    await cleanStaleTemps(root, meta, {
      ...(opts.staleTempAgeMs === undefined ? {} : { maxAgeMs: opts.staleTempAgeMs }),
    });
    const versions = await openVersionStore(root, opts);
    return new PosixBackend({
      root,
      meta,
      dirPerms: opts.dirPerms ?? 0o755,
      filePerms: opts.filePerms ?? DEFAULT_FILE_PERMS,
      ...(opts.bucketLinks ? { bucketLinks: true } : {}),
      ...(opts.chownUid || opts.chownGid
        ? { chown: { uid: opts.chownUid === true, gid: opts.chownGid === true } }
        : {}),
      region: opts.region ?? 'us-east-1',
      etagMode: checkEtagMode(opts.etagMode ?? MD5_ETAG),
      ...(versions ? { versions } : {}),
    });
  }

  get root(): string {
    return this.env.root;
  }

  /** The versioning directory, when opened with one. */
  get versioningDir(): string | undefined {
    return this.env.versions?.root;
  }

  /** Where attributes are kept: xattrs, a sidecar tree, or nowhere. */
  get metaStore(): MetaStoreKind {
    return this.env.meta.kind;
  }

  override async shutdown(): Promise<void> {}

  // Every operation is a function of the tree, installed from the POSIX_OPS table.
  static {
    installUpstreamOps(PosixBackend, (b) => b.env, POSIX_OPS);
  }
}
