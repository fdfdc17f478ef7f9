// The GET side for a body that can read at a position (READ_AT, e.g. the posix backend's file):
// the payload is read straight into the pool slices — no stream chunks, no copy — and each slice
// is RDMA-WRITTEN to the client while the next slices are being read; with two lanes (a spare
// channel), chunk i goes on lane i % 2, so two WRITEs run at once. Invariants: a slice is read
// into only after its previous WRITE was acknowledged; one WRITE at a time per lane; the promise
// resolves only when every WRITE is acknowledged; and it settles only after every read into a
// slice has finished, so the lease can never go back while the disk still writes it.

import type { PositionalBody } from '@vgwrdma/backend-contract';
import { READ_AT } from '@vgwrdma/backend-contract';
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
    // Slices hold WRITEs in flight (one per lane) and reads ahead; read j reuses the slice of
    // chunk j - slots, whose WRITE is awaited first (with enough slices it was already).
    const lanes = slots.length > session.lanes ? session.lanes : 1;
    const ahead = Math.max(1, slots.length - lanes);
    const writes: Promise<number>[] = [];
    const readInto = async (j: number) => {
      const previous = writes[j - slots.length];
      if (previous) await previous;
      startRead(j);
    };
    for (let i = 0; i < Math.min(ahead, chunks); i++) startRead(i);
    let offset = 0;
    for (let i = 0; i < chunks; i++) {
      const n = await (reads[i] as Promise<number>);
      if (signal.aborted) throw signal.reason ?? new Error('request aborted');
      const sameLane = writes[i - lanes];
      if (sameLane) await sameLane;
      writes[i] = session.transfer('write', i % slots.length, n, offset, i % lanes);
      offset += n;
      if (i + ahead < chunks) await readInto(i + ahead);
    }
    await Promise.all(writes);
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
