// The GET side: the backend's body is copied into pool slices and RDMA-WRITTEN to the client's
// memory at the token address, pipelined — while slice A is on the wire, slice B fills from the
// body. Invariants: a slice is refilled only after its WRITE was acknowledged; the promise
// resolves only when every WRITE is acknowledged (softnic acks a WRITE once the bytes are in the
// client's memory), so the HTTP reply never precedes the data.

import type { Readable } from 'node:stream';
import { VgwrdmaError } from '@vgwrdma/errors';
import type { RdmaSession } from './rdma-session.js';

/** The backend delivered another byte count than it announced. */
export class BodyLengthError extends VgwrdmaError<'VGW_ERR_RDMA_BODY_LENGTH'> {
  override readonly name = 'BodyLengthError';
  constructor(message: string) {
    super('VGW_ERR_RDMA_BODY_LENGTH', message);
  }
}

/** Writes exactly `payload` bytes of `body` into the token window; resolves with the count. */
export async function rdmaDownload(
  session: RdmaSession,
  body: Readable,
  payload: number,
  signal: AbortSignal,
): Promise<number> {
  const slots = session.slices;
  const slotWrites: (Promise<number> | undefined)[] = slots.map(() => undefined);
  let last: Promise<number> | undefined;
  let slot = 0;
  let fill = 0; // bytes in the current slot
  let offset = 0; // remote offset of the current slot's first byte
  let received = 0;

  const flush = async () => {
    if (fill === 0) return;
    if (last) await last; // one transfer at a time per channel
    const p = session.transfer('write', slot, fill, offset);
    slotWrites[slot] = p;
    last = p;
    offset += fill;
    fill = 0;
    slot = (slot + 1) % slots.length;
    await slotWrites[slot]; // refill only an acknowledged slice
  };

  for await (const raw of body) {
    if (signal.aborted) throw signal.reason ?? new Error('request aborted');
    const chunk = raw as Buffer;
    received += chunk.length;
    if (received > payload) throw new BodyLengthError(`the backend body is longer than ${payload} bytes`);
    let pos = 0;
    while (pos < chunk.length) {
      const target = slots[slot];
      if (!target) throw new RangeError('slice missing');
      const n = Math.min(target.length - fill, chunk.length - pos);
      target.bytes.set(chunk.subarray(pos, pos + n), fill);
      fill += n;
      pos += n;
      if (fill === target.length) await flush();
    }
  }
  if (received !== payload)
    throw new BodyLengthError(`the backend body ended after ${received} of ${payload} bytes`);
  await flush();
  if (last) await last;
  return offset;
}
