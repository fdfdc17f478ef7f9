// A registration's progress gate (ABI 1.9, softnic; rdma_host_client_wrapper.h): lets a client
// hand out a token before its bytes are all there, or use bytes before a transfer ends. The
// client's own agent enforces it, on the TCP and the same-host direct path alike:
//   'upload'   — publish(n) says [0, n) holds its final bytes; a gateway READ of [o, o+len) is
//                answered only once n ≥ o+len (no advance for the stall timeout: the READ is
//                refused, and the gateway's request fails naming the stall).
//   'download' — `value` is how much landed contiguously from offset 0 (the agent raises it
//                after each WRITE); after the reply everything has, whatever it says.
//   'failed'   — waiting and later READs are refused at once (the client gave up).
//   'off'      — no gate (every registration starts so).

import { InvalidArgumentError } from '@vgwrdma/errors';
import { koffi } from '@vgwrdma/native';
import { RdmaError } from '../errors.js';
import type { Ptr, ShimLibrary } from '../native/shim-library.js';
import type { ClientAbi } from './client-abi.js';

export type ProgressMode = 'off' | 'upload' | 'download' | 'failed';
const MODE_ID: Readonly<Record<ProgressMode, number>> = { off: 0, upload: 1, download: 2, failed: 3 };

export interface ProgressArmOptions {
  /** Refuse a waiting READ when the word has not moved for this long; default (and kept) 5000 ms. */
  readonly stallTimeoutMs?: number;
}

export class ProgressGate {
  private raw: BigUint64Array | undefined;

  /** @internal */
  constructor(
    private readonly lib: ShimLibrary,
    private readonly abi: ClientAbi,
    private readonly client: Ptr,
    private readonly mr: Ptr,
  ) {}

  /** Starts a transfer's gate afresh (word 0) in `mode`. Throws RdmaError ENOTSUP off softnic. */
  arm(mode: ProgressMode, options: ProgressArmOptions = {}): void {
    const ms = options.stallTimeoutMs ?? 0;
    if (!Number.isSafeInteger(ms) || ms < 0 || ms > 0xffffffff)
      throw new InvalidArgumentError(`stallTimeoutMs must be 0..4294967295, got ${ms}`);
    this.check('progressArm', this.abi.progressArm(this.client, this.mr, MODE_ID[mode], ms));
  }

  /** 'upload': [0, bytes) is ready. Never lowers the word; RdmaError ERANGE past the region. */
  publish(bytes: number): void {
    if (!Number.isSafeInteger(bytes) || bytes < 0)
      throw new InvalidArgumentError(`publish: bad byte count ${bytes}`);
    this.check('progressPublish', this.abi.progressPublish(this.client, this.mr, bytes));
  }

  /** The word now: bytes published ('upload') or landed contiguously ('download'). */
  get value(): number {
    return this.check('progress', this.abi.progress(this.client, this.mr));
  }

  /** Bytes of gateway READs the agent has served from this region since the last arm. */
  get served(): number {
    return this.check('progressServed', this.abi.progressServed(this.client, this.mr));
  }

  /**
   * The word itself, for code that stores to it directly. Stores must only raise it, up to the
   * region's size: the agent refuses a word that went backwards or past the size.
   */
  get word(): BigUint64Array {
    if (!this.raw) {
      const at = this.abi.progressWord(this.client, this.mr);
      if (at === 0n) this.check('progressWord', this.lib.lastError().errno || -22);
      this.raw = new BigUint64Array(koffi.view(at, 8));
    }
    return this.raw;
  }

  private check(what: string, ret: number): number {
    if (ret < 0) throw new RdmaError(what, ret, this.lib.lastError().message);
    return ret;
  }
}
