// A preallocated region of a file written through a shared mapping (@vgwrdma/native's
// regionMapCall) instead of pwrite: what a multipart part written in place goes through
// (multipart/in-place.ts). Sixteen parts writing one assembly file by pwrite take turns on the
// file's lock; through mappings they do not (docs/performance.md). The first mapped write that
// fails moves this file to pwrite for good, and pwrite writes the same bytes again: it either
// succeeds (a page the mapping could not populate is fine to write) or fails with the real errno
// (ENOSPC → InsufficientStorage, EIO), as a pwrite-only upload would. A kernel without
// MADV_POPULATE_WRITE turns mapped writes off for the whole process. close() unmaps the region
// (after the writes in flight); the file itself stays open, its owner's to close.
import { constants } from 'node:os';
import type { RegionWriter } from '@vgwrdma/native/kernels';
import type { FdFile, PositionalFile } from './fd-file.js';

const EOPNOTSUPP = constants.errno.EOPNOTSUPP;
/** Set once a kernel said it cannot populate a mapping for writing. */
let unsupported = false;

/** Whether mapped writes are still worth trying in this process. */
export function mappedWritesSupported(): boolean {
  return !unsupported;
}

export class MappedRegionFile implements PositionalFile {
  private mapped = true;

  constructor(
    private readonly file: FdFile,
    private readonly region: RegionWriter,
  ) {}

  get fd(): number {
    return this.file.fd;
  }

  async writev(buffers: Buffer[], position: number): Promise<{ bytesWritten: number }> {
    let at = position;
    for (const [i, b] of buffers.entries()) {
      if (!this.mapped || unsupported) {
        const { bytesWritten } = await this.file.writev(buffers.slice(i), at);
        return { bytesWritten: at - position + bytesWritten };
      }
      const rc = await this.region.write(at, b);
      if (rc !== 0) {
        if (rc === -EOPNOTSUPP) unsupported = true;
        this.mapped = false;
        const { bytesWritten } = await this.file.writev(buffers.slice(i), at);
        return { bytesWritten: at - position + bytesWritten };
      }
      at += b.length;
      this.file.wrote(position, at - position);
    }
    return { bytesWritten: at - position };
  }

  wrote(position: number, bytes: number): void {
    this.file.wrote(position, bytes);
  }

  /** Unmaps the region once no write runs (idempotent); the file stays open. */
  close(): Promise<void> {
    return this.region.close();
  }
}
