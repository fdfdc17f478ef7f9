// A transfer channel of an RdmaServer (a DCI on the vendor provider, a worker thread on
// softnic). One transfer at a time per channel; transfers on different channels run in parallel.

import { errnoOf, RdmaError } from '../errors.js';
import type { Ptr, ShimLibrary } from '../native/shim-library.js';

export class RdmaChannel implements Disposable {
  private freed = false;

  /** @internal */
  constructor(
    private readonly lib: ShimLibrary,
    private readonly srv: Ptr,
    /** Channel id in [0, channels). */
    readonly id: number,
    private readonly onClose: (c: RdmaChannel) => void,
  ) {}

  get closed(): boolean {
    return this.freed;
  }

  /**
   * Aborts the transfer running on this channel, if any: on softnic its agent socket is shut
   * down, so the transfer completes soon (ECANCELED) even when the agent trickles bytes. The
   * transfer may still write into its buffer until its promise settles — only then may the buffer
   * be reused and the channel closed. False when the transport cannot abort (cuobj) or the
   * channel is closed; nothing running is not an error.
   */
  cancel(): boolean {
    if (this.freed) return false;
    const ret = this.lib.fn.cuobj_server_cancel_channel(this.srv, this.id);
    if (ret === errnoOf('EOPNOTSUPP')) return false;
    if (ret < 0) throw new RdmaError('cancelChannel', ret, this.lib.lastError().message);
    return true;
  }

  /** Returns the channel to the server. Fails with EBUSY while a transfer runs on it. Idempotent. */
  close(): void {
    if (this.freed) return;
    const ret = this.lib.fn.cuobj_server_free_channel(this.srv, this.id);
    if (ret < 0) throw new RdmaError('freeChannel', ret, this.lib.lastError().message);
    this.freed = true;
    this.onClose(this);
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
