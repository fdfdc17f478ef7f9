// Joins the RDMA plugin's per-transfer events to the HTTP request they belong to, by request id:
// the event arrives while the request is still running, the access-log line takes it when the
// response ends. Only requests that carried an RDMA descriptor are looked up (and removed), so an
// entry never outlives its request.
import type { RdmaPlugin, RdmaTransferEvent } from '@vgwrdma/cu-backend';

export class RdmaOutcomes {
  private readonly byRequest = new Map<string, RdmaTransferEvent>();

  /** Starts listening to `rdma`'s transfers; returns the function that stops it. */
  listen(rdma: RdmaPlugin): () => void {
    return rdma.onTransfer((e) => {
      this.byRequest.set(e.requestId, e);
    });
  }

  /** The transfer of request `id`, removed from the table. */
  take(id: string): RdmaTransferEvent | undefined {
    const e = this.byRequest.get(id);
    if (e !== undefined) this.byRequest.delete(id);
    return e;
  }
}
