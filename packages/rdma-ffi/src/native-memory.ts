// Native memory shown to JS: memory the shims allocated (so its address stays valid while C
// threads use it — a JS Buffer's address is only valid during one call), exposed as an external
// ArrayBuffer through koffi.view. After close() the memory is gone: `bytes` throws from then on,
// and views taken before must not be used (V8 cannot detach an external ArrayBuffer here).

import { InvalidStateError } from '@vgwrdma/errors';
import { koffi } from '@vgwrdma/native';

export abstract class NativeMemory {
  private view: Uint8Array | undefined;
  private released = false;

  protected constructor(
    /** Start address of the memory, as C sees it. */
    readonly address: bigint,
    /** Length in bytes. */
    readonly size: number,
  ) {}

  /** Whether close() has run. */
  get closed(): boolean {
    return this.released;
  }

  /** The memory as bytes (no copy). Throws after close(). */
  get bytes(): Uint8Array {
    if (this.released) throw new InvalidStateError('native memory used after close()');
    if (!this.view) this.view = new Uint8Array(koffi.view(this.address, this.size));
    return this.view;
  }

  /** Marks the memory released; subclasses call it once the native side has let go. */
  protected markReleased(): void {
    this.released = true;
    this.view = undefined;
  }
}
