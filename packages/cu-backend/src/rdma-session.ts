// One request's RDMA resources: a pool lease cut into slices, one channel, and the token window.
// A channel runs one transfer at a time, so every transfer of a session is issued only after the
// previous one settled; pipelining comes from overlapping that one transfer with the backend's
// work (disk, hashing) on another slice. `settle()` waits until nothing is in flight — the lease
// and channel may be returned only after it.

import type { BufferLease, BufferSlice } from '@vgwrdma/bufferpool';
import type { RdmaChannel, RdmaServer, RdmaToken } from '@vgwrdma/rdma-ffi';

const noop = () => {};
/** One slice on the wire, the others being filled or drained (disk, hashing). */
const MAX_SLICES = 4;

export class RdmaSession {
  readonly slices: BufferSlice[];
  private last: Promise<unknown> = Promise.resolve();
  /** Bytes moved by transfers that completed. */
  moved = 0;

  constructor(
    private readonly server: RdmaServer,
    readonly lease: BufferLease,
    readonly channel: RdmaChannel,
    readonly token: RdmaToken,
    chunkSize: number,
    private readonly key: string,
  ) {
    this.slices = lease.slices(chunkSize, MAX_SLICES);
  }

  /** Largest transfer one slice takes. */
  get chunkSize(): number {
    return this.slices[0]?.length ?? 0;
  }

  /**
   * Moves `size` bytes between slice `slot` and the token window at `remoteOffset`: 'read' = RDMA
   * READ from the client (PUT), 'write' = RDMA WRITE into it (GET). The caller must have awaited
   * the previous transfer. The promise rejects with the RdmaError; it is marked handled so a
   * transfer nobody awaits any more (request abandoned) never becomes an unhandled rejection.
   */
  transfer(dir: 'read' | 'write', slot: number, size: number, remoteOffset: number): Promise<number> {
    const slice = this.slices[slot];
    if (!slice) throw new RangeError(`no slice ${slot}`);
    const t = {
      buffer: slice.buffer,
      localOffset: slice.offset,
      size,
      token: this.token,
      remoteOffset,
      channel: this.channel,
      key: this.key,
    };
    const p = (dir === 'read' ? this.server.handlePut(t) : this.server.handleGet(t)).then((n) => {
      this.moved += n;
      return n;
    });
    p.catch(noop);
    this.last = p;
    return p;
  }

  /** Resolves once the last transfer issued has settled (either way). */
  async settle(): Promise<void> {
    await this.last.catch(noop);
  }
}
