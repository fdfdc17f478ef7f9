// What every operation module needs: the tree, the metadata store and the options it was opened
// with. PosixBackend builds one and passes it down; modules hold no state of their own.
import type { Layout } from './fs/layout.js';
import type { MetaStore } from './meta/store.js';

export interface PosixEnv extends Layout {
  readonly root: string;
  readonly meta: MetaStore;
  /** Mode of directories created for keys and buckets. */
  readonly dirPerms: number;
  readonly region: string;
}
