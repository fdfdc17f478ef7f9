// One request's RDMA resources: a pool lease cut into slices, one channel (a lane) — or, for a
// large GET on a lightly loaded server, a second one — and the token window. A channel runs one
// transfer at a time, so every transfer on a lane is issued only after that lane's previous one
// settled; pipelining comes from overlapping transfers with the backend's work (disk, hashing) on
// other slices, and with a second lane, two transfers (two softnic worker threads) at once.
// `settle()` waits until nothing is in flight on any lane — the lease and channels may be
// returned only after it. `abandon()` (the transfer deadline) makes every transfer promise reject
// at once, so the request can answer, and cancels the native transfers (softnic: their sockets are
// shut down), while settle() still waits for the native calls to end: until they have, they may
// still write into the lease, so it cannot go to another request before.

import type { BufferLease, BufferSlice } from '@vgwrdma/bufferpool';
import type { RdmaChannel, RdmaServer } from '@vgwrdma/rdma-ffi';
import type { RdmaToken } from '@vgwrdma/rdma-protocol';

const noop = () => {};
/** One slice on the wire, the others being filled or drained (disk, hashing). */
const MAX_SLICES = 4;

export class RdmaSession {
  readonly slices: BufferSlice[];
  /** Channels after the first, taken for a GET only while plenty are free. */
  private readonly spares: RdmaChannel[] = [];
  /** The last transfer issued on each lane. */
  private readonly last: Promise<unknown>[] = [Promise.resolve()];
  /** Bytes moved by transfers that completed. */
  moved = 0;
  /** Why the session was abandoned (its deadline passed); undefined while it is live. */
  abandoned: unknown;
  private readonly gaveUp: Promise<never>;
  private rejectGaveUp!: (reason: unknown) => void;

  constructor(
    private readonly server: RdmaServer,
    readonly lease: BufferLease,
    readonly channel: RdmaChannel,
    readonly token: RdmaToken,
    chunkSize: number,
  ) {
    this.slices = lease.slices(chunkSize, MAX_SLICES);
    this.gaveUp = new Promise<never>((_, reject) => {
      this.rejectGaveUp = reject;
    });
    this.gaveUp.catch(noop);
  }

  /**
   * Gives up on the session: every transfer promise, pending or later, rejects with `reason`, and
   * the transfers on the wire are cancelled (softnic shuts their agent sockets, so even an agent
   * trickling bytes lets go at once). settle() still waits for the native calls to end: until
   * then they may write into the lease. Once only.
   */
  abandon(reason: unknown): void {
    if (this.abandoned !== undefined) return;
    this.abandoned = reason;
    this.rejectGaveUp(reason);
    for (const c of this.channels) {
      try {
        c.cancel(); // false (cuobj): the native call runs to its own end; settle() still waits
      } catch {
        // a channel that cannot be cancelled is waited for all the same
      }
    }
  }

  /** Lanes (channels) transfers can run on at once: 1, or 2 with a spare. */
  get lanes(): number {
    return 1 + this.spares.length;
  }

  /** Every channel of the session (the first, then spares). */
  get channels(): readonly RdmaChannel[] {
    return [this.channel, ...this.spares];
  }

  /** Adds a lane: transfers with `lane` = its index run on `channel`, in parallel with lane 0. */
  addLane(channel: RdmaChannel): void {
    this.spares.push(channel);
    this.last.push(Promise.resolve());
  }

  /** Largest transfer one slice takes. */
  get chunkSize(): number {
    return this.slices[0]?.length ?? 0;
  }

  /**
   * Moves `size` bytes between slice `slot` and the token window at `remoteOffset`: 'read' = RDMA
   * READ from the client (PUT), 'write' = RDMA WRITE into it (GET). The caller must have awaited
   * the previous transfer on the same lane. The promise rejects with the RdmaError, or with the
   * abandon reason as soon as the session is abandoned; it is marked handled so a transfer nobody
   * awaits any more (request abandoned) never becomes an unhandled rejection.
   */
  transfer(
    dir: 'read' | 'write',
    slot: number,
    size: number,
    remoteOffset: number,
    lane = 0,
  ): Promise<number> {
    if (this.abandoned !== undefined) {
      const refused = Promise.reject(this.abandoned);
      refused.catch(noop);
      return refused;
    }
    const slice = this.slices[slot];
    if (!slice) throw new RangeError(`no slice ${slot}`);
    const channel = lane === 0 ? this.channel : this.spares[lane - 1];
    if (!channel) throw new RangeError(`no lane ${lane}`);
    const t = {
      buffer: slice.buffer,
      localOffset: slice.offset,
      size,
      token: this.token,
      remoteOffset,
      channel,
    };
    const p = (dir === 'read' ? this.server.handlePut(t) : this.server.handleGet(t)).then((n) => {
      this.moved += n;
      return n;
    });
    p.catch(noop);
    this.last[lane] = p;
    const seen = Promise.race([p, this.gaveUp]);
    seen.catch(noop);
    return seen;
  }

  /**
   * Resolves once no transfer is in flight on any lane: it waits for the last one issued on each,
   * and again if one was issued meanwhile (a completion can start the next READ), so the channels
   * can be freed after it.
   */
  async settle(): Promise<void> {
    for (;;) {
      const pending = [...this.last];
      await Promise.allSettled(pending);
      if (pending.every((p, lane) => p === this.last[lane])) return;
    }
  }
}
