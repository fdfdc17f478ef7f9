// The RDMA plugin's observation fields: what one request's RDMA leg came to, as the gateway hands
// them to its observers under `RequestObservation.plugins.rdma` (the access log's via / RDMA
// bytes / decline reason). rdmaObservation() is the typed reader for an observer.
import type { DeclineReason } from '@vgwrdma/rdma-protocol';
import type { RdmaRequestRecord } from './rdma-grant.js';
import type { TransferDirection, TransferOutcome } from './transfer-events.js';

/** Present for every request that carried an RDMA descriptor past authentication. */
export interface RdmaObservation {
  /** 'rdma' when the payload moved by RDMA, 'http' otherwise. */
  readonly via: 'rdma' | 'http';
  /** Payload bytes the RDMA leg moved (0 unless done). */
  readonly bytes: number;
  /** The transfer CuServer ran or declined; absent when it never decided (not a transfer, refused first). */
  readonly direction?: TransferDirection;
  readonly outcome?: TransferOutcome;
  /** Why the payload went (GET) or must go (PUT) by HTTP instead. */
  readonly declineReason?: DeclineReason;
}

/** The plugin's name, the key of its fields in an observation. */
export const RDMA_PLUGIN_NAME = 'rdma';

/** The observation of one request's record: its fields, and the object size when RDMA moved it. */
export function observeRecord(record: RdmaRequestRecord): { objectSize?: number; fields: RdmaObservation } {
  const t = record.transfer;
  const done = t?.outcome === 'done';
  const fields: RdmaObservation = {
    via: done ? 'rdma' : 'http',
    bytes: done ? t.bytes : 0,
    ...(t === undefined ? {} : { direction: t.direction, outcome: t.outcome }),
    ...(t?.reason === undefined ? {} : { declineReason: t.reason }),
  };
  return done && t.bytes > 0 ? { objectSize: t.bytes, fields } : { fields };
}

/** The RDMA fields of a gateway's request observation, when the request carried a descriptor. */
export function rdmaObservation(o: {
  readonly plugins?: Readonly<Record<string, unknown>>;
}): RdmaObservation | undefined {
  return o.plugins?.[RDMA_PLUGIN_NAME] as RdmaObservation | undefined;
}
