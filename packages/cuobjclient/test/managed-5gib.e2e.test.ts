// The size target on a small machine: a 5 GiB object (larger than one session, one RDMA
// token and one Node 20 Uint8Array) round-trips by RDMA from host memory through a real gateway
// process as a managed transfer, with the standard multipart ETag, every byte verified. The data
// is a deterministic pattern generated part by part (each 1 MiB block a random base stamped
// with its block and page number, so a misplaced, repeated or stale part cannot pass), produced
// into the part buffers by a SourceReader and checked in place by a DestinationWriter: no 5 GiB
// buffer on either side. Needs ~11 GiB free where the gateway keeps its files (the parts, then
// the assembled object); it skips, saying so, where there is less.

import { createHash, randomFillSync } from 'node:crypto';
import { statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { CreateBucketCommand, HeadObjectCommand, ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import { EmbeddedGateway } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PART_SIZE, TransferManager } from '../src/index.js';

const MiB = 2 ** 20;
const SIZE = 5 * 2 ** 30;
const BLOCK = MiB;
const PAGE = 4096;
const bucket = 'five-gib';

const base = randomFillSync(new Uint8Array(BLOCK));

/** Block `k` of the pattern (or its first out.length bytes) into `out`. */
function blockInto(k: number, out: Uint8Array): void {
  out.set(base.subarray(0, out.length));
  const dv = new DataView(out.buffer, out.byteOffset, out.length);
  for (let p = 0; p + 8 <= out.length; p += PAGE) {
    dv.setUint32(p, k, true);
    dv.setUint32(p + 4, p / PAGE, true);
  }
}

/** The pattern's bytes [offset, offset + into.length) into `into`. */
function patternAt(offset: number, into: Uint8Array): void {
  const scratch = new Uint8Array(BLOCK);
  for (let at = 0; at < into.length; ) {
    const pos = offset + at;
    const k = Math.floor(pos / BLOCK);
    const from = pos - k * BLOCK;
    const n = Math.min(BLOCK - from, into.length - at);
    if (from === 0 && n === BLOCK) blockInto(k, into.subarray(at, at + BLOCK));
    else {
      blockInto(k, scratch);
      into.set(scratch.subarray(from, from + n), at);
    }
    at += n;
  }
}

async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
}

describe('a 5 GiB object by managed RDMA transfer (host memory)', () => {
  let gw: EmbeddedGateway;
  const free = freeBytes(tmpdir());

  beforeAll(async () => {
    gw = await EmbeddedGateway.start();
    await gw.client().send(new CreateBucketCommand({ Bucket: bucket }));
  });
  afterAll(async () => {
    await gw?.stop();
  });

  it('uploads with the multipart ETag and downloads every byte back', {
    timeout: 20 * 60_000,
  }, async (ctx) => {
    const available = await free;
    if (available < 11 * 2 ** 30)
      return ctx.skip(
        `needs ~11 GiB free in ${tmpdir()} for the gateway's parts and object; ${available} bytes free`,
      );
    const s3 = gw.client();
    await using tm = new TransferManager({ client: s3 });
    const partSize = DEFAULT_PART_SIZE;
    const parts = SIZE / partSize;

    // The expected ETag: MD5 of the parts' MD5s, taken from what the reader produced.
    const md5s = new Map<number, Buffer>();
    const source = {
      size: SIZE,
      read(offset: number, into: Uint8Array) {
        patternAt(offset, into);
        md5s.set(offset, createHash('md5').update(into).digest());
      },
    };
    let lastProgress = 0;
    const up = await tm.upload({
      bucket,
      key: 'five',
      source,
      onProgress: (p) => {
        expect(p.bytesDone).toBeGreaterThan(lastProgress);
        lastProgress = p.bytesDone;
      },
    });
    expect(lastProgress).toBe(SIZE);
    const digests = [...md5s.entries()].sort((a, b) => a[0] - b[0]).map(([, d]) => d);
    const etag = `"${createHash('md5').update(Buffer.concat(digests)).digest('hex')}-${parts}"`;
    expect(up).toMatchObject({ method: 'multipart', bytes: SIZE, parts, etag });
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'five' }));
    expect(head.ContentLength).toBe(SIZE);
    expect(head.ETag).toBe(etag);
    expect((await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? []).toHaveLength(
      0,
    );

    let got = 0;
    const wrong: number[] = [];
    const destination = {
      capacity: SIZE,
      write(offset: number, bytes: Uint8Array) {
        const want = new Uint8Array(bytes.length);
        patternAt(offset, want);
        if (Buffer.compare(want, bytes) !== 0) wrong.push(offset);
        got += bytes.length;
      },
    };
    const down = await tm.download({ bucket, key: 'five', destination });
    expect(down).toMatchObject({ bytes: SIZE, parts, etag });
    expect(got).toBe(SIZE);
    expect(wrong).toEqual([]);
  });
});
