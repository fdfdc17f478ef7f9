// What every operation module needs: the tree, the metadata store and the options it was opened
// with. PosixBackend builds one and passes it down; modules hold no state of their own.
import type { EtagMode } from '@vgwrdma/backend-contract';
import type { ChownPolicy } from './fs/file-owner.js';
import type { Layout } from './fs/layout.js';
import type { MetaStore } from './meta/store.js';
import type { VersionStore } from './versioning/version-store.js';

export interface PosixEnv extends Layout {
  readonly root: string;
  readonly meta: MetaStore;
  /** Mode of directories created for keys and buckets. */
  readonly dirPerms: number;
  /** Mode of new object files (--file-perms), applied exactly (not reduced by the umask). */
  readonly filePerms: number;
  /** --chuid / --chgid: new files and directories belong to the requesting account. */
  readonly chown?: ChownPolicy;
  readonly region: string;
  /** How a single PUT's ETag is computed (--etag-mode). */
  readonly etagMode: EtagMode;
  /** Present when opened with a versioning directory (--versioning-dir). */
  readonly versions?: VersionStore;
}
