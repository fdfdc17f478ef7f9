// What CuServer's transfers came to: one record per decided transfer, which both counts it (the
// stats a gateway reports) and tells the listeners (metrics, access log). The counters are derived
// from the records, so a transfer can never be counted one way and reported another.

import type { RequestContext } from '@vgwrdma/backend-contract';
import type { DeclineReason } from '@vgwrdma/rdma-protocol';
import { rdmaRecordOf } from './rdma-grant.js';
import type { RdmaTransferEvent, TransferDirection, TransferListener } from './transfer-events.js';

/** A transfer's outcome as CuServer knows it (the event without what the ledger adds). */
export type TransferRecord = Omit<RdmaTransferEvent, 'requestId' | 'direction' | 'ms'>;

export interface TransferCounts {
  readonly rdmaPuts: number;
  readonly rdmaGets: number;
  readonly bytesRead: number;
  readonly bytesWritten: number;
  readonly declines: Readonly<Record<DeclineReason, number>>;
  readonly failures: number;
  /** Transfers abandoned at their deadline. */
  readonly timeouts: number;
}

const noDeclines = (): Record<DeclineReason, number> => ({
  'pool-busy': 0,
  'no-channel': 0,
  'transport-unreachable': 0,
  'size-over-limit': 0,
  'shutting-down': 0,
  anonymous: 0,
  'agent-busy': 0,
});

export class TransferLedger {
  private listeners: TransferListener[] = [];
  private counts = { rdmaPuts: 0, rdmaGets: 0, bytesRead: 0, bytesWritten: 0, failures: 0, timeouts: 0 };
  private readonly declines = noDeclines();

  /** Calls `listener` with every transfer's outcome; returns the function that stops it. */
  onTransfer(listener: TransferListener): () => void {
    this.listeners = [...this.listeners, listener];
    return () => {
      this.listeners = this.listeners.filter((l) => l !== listener);
    };
  }

  /**
   * Counts one transfer and tells the listeners. A done transfer that moved bytes counts as an RDMA
   * GET/PUT (an empty GET answers without RDMA); `timedOut` marks a failure at the deadline.
   */
  record(
    ctx: RequestContext,
    direction: TransferDirection,
    started: number,
    outcome: TransferRecord,
    timedOut = false,
  ): void {
    if (outcome.outcome === 'declined' && outcome.reason !== undefined) this.declines[outcome.reason]++;
    if (outcome.outcome === 'failed') {
      this.counts.failures++;
      if (timedOut) this.counts.timeouts++;
    }
    if (outcome.outcome === 'done' && outcome.bytes > 0) {
      if (direction === 'get') {
        this.counts.rdmaGets++;
        this.counts.bytesWritten += outcome.bytes;
      } else {
        this.counts.rdmaPuts++;
        this.counts.bytesRead += outcome.bytes;
      }
    }
    const record = rdmaRecordOf(ctx.rdma);
    if (this.listeners.length === 0 && record === undefined) return;
    const event: RdmaTransferEvent = {
      requestId: ctx.requestId,
      direction,
      ms: performance.now() - started,
      ...outcome,
    };
    // The request's own outcome (its observation fields), beside the listeners' stream.
    if (record) record.transfer = event;
    for (const l of this.listeners) l(event);
  }

  snapshot(): TransferCounts {
    return { ...this.counts, declines: { ...this.declines } };
  }
}
