// A GetObject body backed by an open file: an ordinary read stream over [start, end] that also
// answers READ_AT (payload bytes at a position, read straight into the caller's memory), so
// CuServer can fill registered buffers with large positional reads instead of copying stream
// chunks. The stream owns the handle either way: it closes it at its end or when destroyed.
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { type PositionalBody, READ_AT } from '@vgwrdma/s3-backend';

/** Stream chunk size: fewer, larger reads and socket writes than Node's 64 KiB default. */
const STREAM_CHUNK = 512 * 1024;

/** A body over bytes [start, end] (inclusive) of `fh`. */
export function fileBody(fh: FileHandle, start: number, end: number): Readable & PositionalBody {
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
