// A GetObject body backed by an open file: an ordinary read stream over [start, end] that also
// answers READ_AT (payload bytes at a position, read straight into the caller's memory), so
// CuServer can fill registered buffers with large positional reads instead of copying stream
// chunks. The stream owns the handle either way: it closes it at its end or when destroyed.
// A small range (≤ WHOLE_MAX) is read whole at once instead (wholeFileBody): one positional read,
// the handle closed, and the bytes offered as WHOLE_BYTES so the gateway sends them in one write —
// no read stream, no pipeline, no second read to find the end.
import { Readable } from 'node:stream';
import { type PositionalBody, READ_AT, WHOLE_BYTES, type WholeBody } from '@vgwrdma/backend-contract';
import type { ReadFd } from './read-fd.js';

/** Stream chunk size: fewer, larger reads and socket writes than Node's 64 KiB default. */
const STREAM_CHUNK = 512 * 1024;

/** A body over bytes [start, end] (inclusive) of `fh`. */
export function fileBody(fh: ReadFd, start: number, end: number): Readable & PositionalBody {
  const stream = fh.createReadStream({ start, end, highWaterMark: STREAM_CHUNK });
  const length = end - start + 1;
  const readAt = async (target: Uint8Array, position: number): Promise<number> => {
    const want = Math.min(target.length, length - position);
    if (want <= 0) return 0;
    let got = 0;
    while (got < want) {
      const { bytesRead } = await fh.read(target, got, want - got, start + position + got);
      if (bytesRead === 0) break; // the file is shorter than its size said: the caller sees the short count
      got += bytesRead;
    }
    return got;
  };
  return Object.assign(stream, { [READ_AT]: readAt });
}

/** Ranges up to this length are read whole (wholeFileBody); longer ones are streamed. */
export const WHOLE_MAX = 1024 * 1024;

/**
 * Bytes [start, end] (inclusive, at most WHOLE_MAX) of `fh` read now, as a body that is also
 * WHOLE_BYTES and READ_AT over that memory. Takes the handle: it is closed here (a failed read
 * closes it too). A file shorter than its size said gives the short bytes, as the stream would.
 */
export async function wholeFileBody(
  fh: ReadFd,
  start: number,
  end: number,
): Promise<Readable & PositionalBody & WholeBody> {
  let bytes: Buffer;
  try {
    const buf = Buffer.allocUnsafe(end - start + 1);
    let got = 0;
    while (got < buf.length) {
      const { bytesRead } = await fh.read(buf, got, buf.length - got, start + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    bytes = got === buf.length ? buf : buf.subarray(0, got);
  } finally {
    // nothing waits on the close: the bytes are in memory
    fh.close().catch(() => undefined);
  }
  const readAt = async (target: Uint8Array, position: number): Promise<number> =>
    position >= bytes.length ? 0 : bytes.copy(target, 0, position);
  return Object.assign(Readable.from([bytes], { objectMode: false }), {
    [READ_AT]: readAt,
    [WHOLE_BYTES]: bytes,
  });
}
