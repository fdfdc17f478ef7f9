// The GET side for a body that can read at a position (READ_AT, e.g. the posix backend's file):
// the payload is read straight into the pool slices — no stream chunks, no copy — and each slice
// is RDMA-WRITTEN to the client while the next slices are being read. Invariants: a slice is
// read into only after its previous WRITE was acknowledged; one WRITE at a time per channel;
// the promise resolves only when every WRITE is acknowledged; and it settles only after every
// read into a slice has finished, so the lease can never go back while the disk still writes it.

import type { PositionalBody } from '@vgwrdma/s3-backend';
import { READ_AT } from '@vgwrdma/s3-backend';
import { BodyLengthError } from './rdma-download.js';
import type { RdmaSession } from './rdma-session.js';

const noop = () => {};

/** Writes exactly `payload` bytes, read from `body` at positions, into the token window. */
export async function rdmaDownloadAt(
  session: RdmaSession,
  body: PositionalBody,
  payload: number,
  signal: AbortSignal,
): Promise<number> {
  const slots = session.slices;
  const chunk = session.chunkSize;
  const chunks = Math.ceil(payload / chunk);
  const reads: Promise<number>[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let last: Promise<number> | undefined;

  const startRead = (i: number) => {
    const slot = slots[i % slots.length];
    if (!slot) throw new RangeError('slice missing');
    const position = i * chunk;
    const len = Math.min(chunk, payload - position);
    const p = readFull(body, slot.bytes.subarray(0, len), position);
    inFlight.add(p);
    p.then(
      () => inFlight.delete(p),
      () => inFlight.delete(p),
    );
    p.catch(noop);
    reads[i] = p;
  };

  try {
    // `ahead` reads in flight: read i+ahead goes into the slot of chunk i-1 (whose WRITE is
    // awaited before WRITE i is issued), or, with a single slice, waits for WRITE i itself.
    const ahead = Math.max(1, slots.length - 1);
    for (let i = 0; i < Math.min(ahead, chunks); i++) startRead(i);
    let offset = 0;
    for (let i = 0; i < chunks; i++) {
      const n = await (reads[i] as Promise<number>);
      if (signal.aborted) throw signal.reason ?? new Error('request aborted');
      if (last) await last;
      last = session.transfer('write', i % slots.length, n, offset);
      offset += n;
      if (i + ahead < chunks) {
        if (slots.length === 1) await last;
        startRead(i + ahead);
      }
    }
    if (last) await last;
    return offset;
  } finally {
    // Nothing may still be filling a slice when the lease goes back.
    await Promise.allSettled([...inFlight]);
  }
}

/** Reads exactly `target.length` bytes at `position`; a shorter payload is a BodyLengthError. */
async function readFull(body: PositionalBody, target: Uint8Array, position: number): Promise<number> {
  let got = 0;
  while (got < target.length) {
    const n = await body[READ_AT](target.subarray(got), position + got);
    if (n === 0) throw new BodyLengthError(`the backend body ended after ${position + got} bytes`);
    got += n;
  }
  return got;
}
