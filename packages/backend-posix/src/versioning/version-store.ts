// Where non-current versions live (docs/posix-layout.md):
// `<versioning-dir>/<bucket>/<h[0:2]>/<h[2:4]>/<h[4:6]>/<h>/<versionId|null>`, h = sha256hex(key).
// The latest version (object or delete marker) always stays at the object path; a key has
// archived versions only while its object path exists. Attributes of archived versions live in
// their own MetaStore: xattrs on the version files, or a sidecar tree beside the main one.
import { join } from 'node:path';
import { sha256Hex } from '../fs/layout.js';
import type { MetaStore } from '../meta/store.js';

export interface VersionStore {
  /** The versioning directory (absolute). */
  readonly root: string;
  /** Attributes of files under `root`, by path relative to it. */
  readonly meta: MetaStore;
}

/** `<bucket>/<h0:2>/<h2:4>/<h4:6>/<h>`: the directory of one key's archived versions. */
export function versionsDirRel(bucket: string, key: string): string {
  const h = sha256Hex(key);
  return `${bucket}/${h.slice(0, 2)}/${h.slice(2, 4)}/${h.slice(4, 6)}/${h}`;
}

export function versionRel(bucket: string, key: string, versionId: string): string {
  return `${versionsDirRel(bucket, key)}/${versionId}`;
}

export function versionAbs(store: VersionStore, rel: string): string {
  return join(store.root, rel);
}
