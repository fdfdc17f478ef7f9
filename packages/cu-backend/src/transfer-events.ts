// One event per RDMA transfer CuServer decided on — done, declined (with the reason) or failed —
// for whoever watches the data path per request: the app's Prometheus metrics and its access log
// join them to the HTTP request by request id. Listeners run synchronously when the transfer's
// outcome is known, before the request answers; with none registered nothing is built.
import type { DeclineReason } from '@vgwrdma/rdma-protocol';

export type TransferDirection = 'get' | 'put';
export type TransferOutcome = 'done' | 'declined' | 'failed';

export interface RdmaTransferEvent {
  /** The gateway's request id (RequestContext.requestId). */
  readonly requestId: string;
  /** 'get': RDMA WRITE to the client (GetObject); 'put': RDMA READ from it (PutObject, UploadPart). */
  readonly direction: TransferDirection;
  readonly outcome: TransferOutcome;
  /** Why the payload went (GET) or must go (PUT) by HTTP instead; only when declined. */
  readonly reason?: DeclineReason;
  /** Payload bytes the RDMA leg moved (0 unless done). */
  readonly bytes: number;
  /** From the backend call's start to the outcome, in ms. */
  readonly ms: number;
  /** Channels the transfer used (2 for a GET that took a spare lane); 0 unless it ran. */
  readonly lanes: number;
}

export type TransferListener = (event: RdmaTransferEvent) => void;
