// The metadata store: where an object's or bucket's attributes live. Three implementations share
// this interface: user.* xattrs (the versitygw default), sidecar files (--sidecar DIR) for
// filesystems without xattrs, and none (--nometa). Paths are relative to the gateway root
// ("bucket" or "bucket/a/b/key") so the sidecar store can map them into its own tree.

export type MetaStoreKind = 'xattr' | 'sidecar' | 'none';

export interface MetaStore {
  readonly kind: MetaStoreKind;
  /** The attribute's value, or undefined when it is not set. ENOENT of the path is thrown. */
  get(rel: string, attr: string, fd?: number): Promise<Buffer | undefined>;
  /** Sets (creates or replaces) an attribute. `fd`, when given, is an open fd of the same file. */
  set(rel: string, attr: string, value: Buffer | string, fd?: number): Promise<void>;
  /** Removes an attribute; absent is not an error. */
  remove(rel: string, attr: string): Promise<void>;
  /** Names of the attributes set (without the `user.` prefix). */
  list(rel: string): Promise<string[]>;
  /**
   * Called after `from` was renamed onto `to` (publish). xattrs travel with the inode, so only
   * stores that keep attributes elsewhere have work to do.
   */
  moved(from: string, to: string): Promise<void>;
  /** Called after the file or directory at `rel` was removed: drop its attributes. */
  dropped(rel: string): Promise<void>;
  /** Called after directory `from` was renamed to `to`: everything below it moved too. */
  movedTree(from: string, to: string): Promise<void>;
  /** Called after directory `rel` was removed with everything below it. */
  droppedTree(rel: string): Promise<void>;
  /**
   * Throws (an S3Error) when attributes for `rel` could not be stored at all; called before an
   * object is published under `rel`, so such a key is refused with nothing stored.
   */
  admit?(rel: string): void;
}

/** Reads an attribute as UTF-8 text. */
export async function getText(
  store: MetaStore,
  rel: string,
  attr: string,
  fd?: number,
): Promise<string | undefined> {
  const v = await store.get(rel, attr, fd);
  return v === undefined ? undefined : v.toString('utf8');
}

/** Reads an attribute holding JSON; undefined when absent or not parseable. */
export async function getJson<T>(
  store: MetaStore,
  rel: string,
  attr: string,
  fd?: number,
): Promise<T | undefined> {
  const text = await getText(store, rel, attr, fd);
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
