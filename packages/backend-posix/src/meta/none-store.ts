// MetaStore for --nometa: attributes are dropped on write and absent on read. Objects keep their
// data only (no ETag, content-type, tags, checksums); see the README for what that costs.
import type { MetaStore } from './store.js';

export class NoMetaStore implements MetaStore {
  readonly kind = 'none';
  async get(): Promise<Buffer | undefined> {
    return undefined;
  }
  async set(): Promise<void> {}
  async remove(): Promise<void> {}
  async list(): Promise<string[]> {
    return [];
  }
  async moved(): Promise<void> {}
  async dropped(): Promise<void> {}
  async movedTree(): Promise<void> {}
  async droppedTree(): Promise<void> {}
}
