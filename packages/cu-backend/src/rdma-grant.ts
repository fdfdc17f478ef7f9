// What the HTTP edge decided about one request's RDMA descriptor, kept beside the descriptor (a
// WeakMap on the object, so it lives exactly as long as the request's context): the RDMA plugin's
// middleware grants or declines it after authentication (rdma-edge.ts), CuServer reads the grant
// before it acquires anything, and records the transfer's outcome on it, which the plugin reports
// as the request's observation fields. A descriptor nobody granted is served as declined
// ('anonymous'), so a CuServer used without the plugin never trusts a token on its own.
import type { RdmaDescriptor } from '@vgwrdma/backend-contract';
import type { AgentEndpoint } from './agent-policy.js';
import type { RdmaTransferEvent } from './transfer-events.js';

export type RdmaGrant =
  /** An unsigned request: PUT answers 501 + decline, GET the object by HTTP (docs/protocol.md). */
  | { readonly kind: 'declined'; readonly reason: 'anonymous' }
  /** A signed request whose token names an agent it may use. */
  | {
      readonly kind: 'granted';
      readonly agent: AgentEndpoint;
      /** Lower-case hex SHA-256 the signature pins for the payload: checked against the RDMA bytes. */
      readonly payloadSha256?: string;
    };

export interface RdmaRequestRecord {
  readonly grant: RdmaGrant;
  /** The transfer CuServer decided on (done, declined, failed); absent when it never ran one. */
  transfer?: RdmaTransferEvent;
}

const records = new WeakMap<RdmaDescriptor, RdmaRequestRecord>();

/** Attaches the edge's decision to `descriptor`; returns the record CuServer will fill. */
export function grantRdma(descriptor: RdmaDescriptor, grant: RdmaGrant): RdmaRequestRecord {
  const record: RdmaRequestRecord = { grant };
  records.set(descriptor, record);
  return record;
}

/** The edge's record of `descriptor`, when one was made. */
export function rdmaRecordOf(descriptor: RdmaDescriptor | undefined): RdmaRequestRecord | undefined {
  return descriptor === undefined ? undefined : records.get(descriptor);
}
