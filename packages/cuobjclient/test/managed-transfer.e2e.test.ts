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
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { EmbeddedGateway } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CuObjError, TransferManager, type TransferProgress } from '../src/index.js';
import { cutAgentOnce } from './agent-cutter.js';
import { errorOf } from './cuobj-errors.js';

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

async function uploadsLeft(s3: S3Client): Promise<number> {
  const l = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
  return l.Uploads?.length ?? 0;
}

async function exists(s3: S3Client, key: string): Promise<boolean> {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return true;
  } catch (e) {
    if ((e as { name?: string }).name === 'NotFound') return false;
    throw e;
  }
}

describe('TransferManager against a gateway process', () => {
  let gw: EmbeddedGateway;
  let limited: EmbeddedGateway; // declines every RDMA request above 1 MiB (501)
  let s3: S3Client;

  beforeAll(async () => {
    [gw, limited] = await Promise.all([
      EmbeddedGateway.start(),
      EmbeddedGateway.start({ maxTransferSize: MiB }),
    ]);
    s3 = gw.client();
    for (const g of [gw, limited]) await g.client().send(new CreateBucketCommand({ Bucket: bucket }));
  });
  afterAll(async () => {
    s3?.destroy();
    await Promise.all([gw?.stop(), limited?.stop()]);
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

  it('checksums: full-object CRC32C, composite CRC32C and CRC64NVME — sent per part, stated at Complete, checked by the gateway and on download', async () => {
    const partSize = 5 * MiB;
    const data = randomFillSync(new Uint8Array(2 * partSize + 999));
    await using tm = new TransferManager({ client: s3, partSize, concurrency: 2 });
    const cases = [
      { algorithm: 'crc32c', type: 'FULL_OBJECT' },
      { algorithm: 'crc32c', type: 'COMPOSITE' },
      { algorithm: 'crc64nvme', type: 'FULL_OBJECT' },
    ] as const;
    for (const c of cases) {
      const key = `sum-${c.algorithm}-${c.type}`;
      const up = await tm.upload({ bucket, key, source: data, checksum: c });
      expect(up.method).toBe('multipart');
      expect(up.checksum?.algorithm).toBe(c.algorithm);
      const head = await s3.send(
        new HeadObjectCommand({ Bucket: bucket, Key: key, ChecksumMode: 'ENABLED' }),
      );
      expect(head.ChecksumType).toBe(c.type);
      const stated = c.algorithm === 'crc32c' ? head.ChecksumCRC32C : head.ChecksumCRC64NVME;
      expect(stated).toBe(up.checksum?.value);
      if (c.type === 'COMPOSITE') expect(stated).toMatch(/-3$/);
      const dst = new Uint8Array(data.length);
      const down = await tm.download({ bucket, key, destination: dst, checksum: c.algorithm });
      expect(down.checksumVerified).toBe(c.type === 'FULL_OBJECT'); // a composite value needs the parts' layout
      expect(Buffer.compare(dst, data)).toBe(0);
    }
    // The full-object CRC32C equals a plain PUT's CRC32C of the same bytes (what S3 stores).
    await s3.send(
      new PutObjectCommand({ Bucket: bucket, Key: 'plain', Body: data, ChecksumAlgorithm: 'CRC32C' }),
    );
    const plain = await s3.send(
      new HeadObjectCommand({ Bucket: bucket, Key: 'plain', ChecksumMode: 'ENABLED' }),
    );
    const full = await s3.send(
      new HeadObjectCommand({ Bucket: bucket, Key: 'sum-crc32c-FULL_OBJECT', ChecksumMode: 'ENABLED' }),
    );
    expect(full.ChecksumCRC32C).toBe(plain.ChecksumCRC32C);
  });

  it('below the threshold one RDMA PUT (a token shorter than the session); a smaller object into a larger destination; an empty object', async () => {
    await using tm = new TransferManager({ client: s3, partSize: 8 * MiB });
    const data = randomFillSync(new Uint8Array(3 * MiB + 7));
    const up = await tm.upload({
      bucket,
      key: 'small',
      source: data,
      contentType: 'application/x-test',
      checksum: { algorithm: 'crc32c' },
    });
    expect(up).toMatchObject({ method: 'single', parts: 1, bytes: data.length });
    expect(up.etag).toBe(`"${createHash('md5').update(data).digest('hex')}"`);
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'small' }));
    expect(head.ContentType).toBe('application/x-test');
    const dst = new Uint8Array(20 * MiB).fill(0xee);
    const down = await tm.download({ bucket, key: 'small', destination: dst });
    expect(down).toMatchObject({ bytes: data.length, parts: 1 });
    expect(Buffer.compare(dst.subarray(0, data.length), data)).toBe(0);
    expect(dst.subarray(data.length).every((b) => b === 0xee)).toBe(true); // nothing past the object

    const empty = await tm.upload({ bucket, key: 'empty', source: new Uint8Array(0) });
    expect(empty).toMatchObject({ bytes: 0, parts: 0 });
    expect((await tm.download({ bucket, key: 'empty', destination: new Uint8Array(4) })).bytes).toBe(0);
  });

  it('a destination too small is refused after HEAD, before any byte moves or any GET is sent', async () => {
    const client = gw.client();
    const wire = countInFlight(client, ['GetObjectCommand']);
    await using tm = new TransferManager({ client, partSize: 5 * MiB });
    await tm.upload({ bucket, key: 'eleven', source: randomFillSync(new Uint8Array(11 * MiB)) });
    const dst = new Uint8Array(11 * MiB - 1).fill(7);
    const e = await errorOf(tm.download({ bucket, key: 'eleven', destination: dst }));
    expect(e.code).toBe('VGW_ERR_CUOBJ_DESTINATION_TOO_SMALL');
    expect(e.message).toMatch(/11534336 bytes; the destination takes 11534335/);
    expect(wire.total()).toBe(0);
    expect(dst.every((b) => b === 7)).toBe(true);
  });

  it('a reader and a writer move an object part by part (the shapes for objects larger than one Uint8Array)', async () => {
    // The same shapes carry the 5 GiB test (managed-5gib.e2e.test.ts); here 40 MiB of a pattern.
    const size = 40 * MiB + 3;
    const at = (i: number) => (i * 2654435761) >>> 24;
    const source = {
      size,
      read(offset: number, into: Uint8Array) {
        for (let i = 0; i < into.length; i++) into[i] = at(offset + i);
      },
    };
    let bad = 0;
    let got = 0;
    const destination = {
      capacity: size,
      write(offset: number, bytes: Uint8Array) {
        for (let i = 0; i < bytes.length; i++) if (bytes[i] !== at(offset + i)) bad++;
        got += bytes.length;
      },
    };
    await using tm = new TransferManager({ client: s3, partSize: 8 * MiB, concurrency: 2 });
    const up = await tm.upload({ bucket, key: 'pattern', source });
    expect(up).toMatchObject({ method: 'multipart', parts: 6, bytes: size });
    const down = await tm.download({ bucket, key: 'pattern', destination });
    expect(down.bytes).toBe(size);
    expect(got).toBe(size);
    expect(bad).toBe(0);
  });

  it('sessions are opened once and reused across transfers; close() frees them and refuses new transfers', async () => {
    const tm = new TransferManager({ client: s3, partSize: 5 * MiB, concurrency: 2 });
    const data = randomFillSync(new Uint8Array(16 * MiB));
    for (let i = 0; i < 3; i++) await tm.upload({ bucket, key: `reuse-${i}`, source: data });
    expect(tm.openSessions).toBe(2);
    await tm.close();
    expect(tm.openSessions).toBe(0);
    expect((await errorOf(tm.upload({ bucket, key: 'late', source: data }))).code).toBe(
      'VGW_ERR_CUOBJ_SESSION_CLOSED',
    );
  });

  it('abort: the signal stops the upload, parts in flight finish, the multipart upload is aborted, no object appears', async () => {
    await using tm = new TransferManager({ client: s3, partSize: 5 * MiB, concurrency: 2 });
    const ac = new AbortController();
    const data = randomFillSync(new Uint8Array(40 * MiB));
    const e = await errorOf(
      tm.upload({
        bucket,
        key: 'aborted',
        source: data,
        signal: ac.signal,
        onProgress: () => ac.abort(new Error('stop')),
      }),
    );
    expect(e.code).toBe('VGW_ERR_CUOBJ_ABORTED');
    expect((e.cause as Error).message).toBe('stop');
    expect(await uploadsLeft(s3)).toBe(0);
    expect(await exists(s3, 'aborted')).toBe(false);
    // an already aborted signal sends nothing
    expect((await errorOf(tm.upload({ bucket, key: 'aborted', source: data, signal: ac.signal }))).code).toBe(
      'VGW_ERR_CUOBJ_ABORTED',
    );
    expect(await exists(s3, 'aborted')).toBe(false);
  });

  it("parts declined for good (size-over-limit): no RDMA retry, VGW_ERR_CUOBJ_PART_FAILED naming the part (upload aborted); with fallback 'http' they go by body at once", async () => {
    const ls3 = limited.client();
    const data = randomFillSync(new Uint8Array(12 * MiB));
    {
      await using tm = new TransferManager({
        client: ls3,
        partSize: 5 * MiB,
        concurrency: 1,
        declineRetries: 2,
        backoffMs: 1,
      });
      const e = await errorOf(tm.upload({ bucket, key: 'declined', source: data }));
      expect(e.code).toBe('VGW_ERR_CUOBJ_PART_FAILED');
      // A permanent decline (x-amz-rdma-decline-reason size-over-limit) is not worth retrying by
      // RDMA, declineRetries notwithstanding (managed-gateway.e2e retries the busy ones).
      expect(e).toMatchObject({ part: 1, retries: 0 });
      expect(e.message).toMatch(/^part 1 failed: PUT: the gateway declined RDMA/);
      expect((e.cause as CuObjError).gateway?.httpStatus).toBe(501);
      expect((e.cause as CuObjError).code).toBe('VGW_ERR_CUOBJ_DECLINED');
      expect(await uploadsLeft(ls3)).toBe(0);
      expect(await exists(ls3, 'declined')).toBe(false);
    }
    await using tm = new TransferManager({
      client: ls3,
      partSize: 5 * MiB,
      fallback: 'http',
      declineRetries: 1,
      backoffMs: 1,
    });
    const up = await tm.upload({ bucket, key: 'fallback', source: data, checksum: { algorithm: 'crc32c' } });
    expect(up).toMatchObject({ method: 'multipart', parts: 3, httpParts: 3, retries: 0 });
    expect(up.etag).toBe(multipartETag(data, 5 * MiB));
    const dst = new Uint8Array(data.length);
    const down = await tm.download({ bucket, key: 'fallback', destination: dst, checksum: 'crc32c' });
    expect(down).toMatchObject({ httpParts: 3, checksumVerified: true });
    expect(Buffer.compare(dst, data)).toBe(0);
  });

  it('a part whose agent connection is cut mid-transfer fails at the gateway and is retried; the object is whole', async () => {
    const client = gw.client();
    const cutter = await cutAgentOnce(client, 2, 256 * 1024);
    try {
      // The direct same-host path would move the bytes beside the socket: keep them on it.
      await using tm = new TransferManager({
        client,
        partSize: 5 * MiB,
        concurrency: 2,
        env: { ...process.env, VGWRDMA_SOFTNIC_DIRECT: '0' },
      });
      const data = randomFillSync(new Uint8Array(16 * MiB));
      const up = await tm.upload({ bucket, key: 'cut', source: data });
      expect(cutter.cuts()).toBe(1);
      expect(up).toMatchObject({ method: 'multipart', parts: 4, retries: 1, httpParts: 0 });
      expect(up.etag).toBe(multipartETag(data, 5 * MiB));
      expect(Buffer.compare(await readFile(join(gw.root, bucket, 'cut')), data)).toBe(0);
    } finally {
      await cutter.close();
    }
  });

  it('a failure that is not transient is not retried: VGW_ERR_CUOBJ_PART_FAILED with the gateway answer as cause', async () => {
    await using tm = new TransferManager({ client: s3, partSize: 5 * MiB });
    const e = await errorOf(tm.upload({ bucket: 'no-such-bucket', key: 'k', source: new Uint8Array(MiB) }));
    expect(e.code).toBe('VGW_ERR_CUOBJ_PART_FAILED');
    expect((e.cause as CuObjError).gateway?.errorCode).toBe('NoSuchBucket');
  });
});
