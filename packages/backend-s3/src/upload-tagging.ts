// Tags given at CreateMultipartUpload, remembered until Complete so they can be put on the new
// object then: Ceph RGW 16.2 accepts x-amz-tagging at CreateMultipartUpload and drops it. With a
// meta bucket they are kept there (`vgw-meta-uploadtags-<bucket>/<uploadId>`), so Complete may
// reach any gateway in front of the store; without one, in this process (bounded, oldest first).
import type { MetaBucket } from './meta-bucket.js';

/** Uploads remembered in memory at most (without a meta bucket). */
const MEMORY_LIMIT = 10_000;

export interface UploadKey {
  bucket: string;
  uploadId: string;
}

export class UploadTagging {
  private readonly memory = new Map<string, string>();

  constructor(private readonly meta: MetaBucket | undefined) {}

  async remember(key: UploadKey, tagging: string, signal: AbortSignal): Promise<void> {
    if (this.meta) return this.meta.put('uploadtags', name(key), tagging, signal);
    if (this.memory.size >= MEMORY_LIMIT) {
      const oldest = this.memory.keys().next().value;
      if (oldest !== undefined) this.memory.delete(oldest);
    }
    this.memory.set(name(key), tagging);
  }

  /** The remembered tags (the x-amz-tagging query form), or undefined. */
  async recall(key: UploadKey, signal: AbortSignal): Promise<string | undefined> {
    if (this.meta) return this.meta.get('uploadtags', name(key), signal);
    return this.memory.get(name(key));
  }

  async forget(key: UploadKey, signal: AbortSignal): Promise<void> {
    if (this.meta) return this.meta.delete('uploadtags', name(key), signal);
    this.memory.delete(name(key));
  }
}

function name(key: UploadKey): string {
  return `${key.bucket}/${key.uploadId}`;
}
