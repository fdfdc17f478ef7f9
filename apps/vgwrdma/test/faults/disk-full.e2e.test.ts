// Disk full: the gateway's root is a 24 MiB tmpfs. A PUT (HTTP or RDMA), an UploadPart or a
// CompleteMultipartUpload that runs out of space answers 507 InsufficientStorage with the
// catalogue's message, leaves no object and nothing in `.sgwtmp` (the space comes back), and the
// gateway keeps serving: reads work, and writes that fit succeed. Skipped (saying why) without root.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { HostClient } from '@vgwrdma/rdma-ffi';
import { useFaultScene } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { content } from '../helpers/object-content.js';
import { RDMA_SDK_OPTIONS, rdmaHeaders, sendError, sendWithToken } from '../helpers/rdma.js';
import { mountTmpfs, type Tmpfs, tmpfsSkipReason } from '../helpers/tmpfs.js';

const MiB = 1024 * 1024;
const Bucket = 'full';
const skip = tmpfsSkipReason();
if (skip) console.log(`disk-full tests skipped: ${skip}`);

describe.skipIf(skip !== undefined)('disk full (24 MiB tmpfs root)', () => {
  let fs: Tmpfs;
  beforeAll(async () => {
    fs = await mountTmpfs(24 * MiB);
  });
  afterAll(() => fs?.unmount());
  const scene = useFaultScene(() => ({
    root: fs.dir, // the tmpfs stays the test's: unmounted above, after the scene
    args: ['--pool-buf-size', '4MiB', '--pool-buf-count', '2'],
    bucket: Bucket,
    objects: { keep: content('keep', 4096) },
    sdk: RDMA_SDK_OPTIONS,
  }));
  let client: HostClient;
  let freeAtStart: number;

  beforeAll(() => {
    client = new HostClient();
    freeAtStart = fs.free();
  });
  afterAll(() => client?.close());

  const expectFull = (e: { code: string; status: number }) =>
    expect(e).toMatchObject({ code: 'InsufficientStorage', status: 507 });

  /** No object, no temp file, and the space back (but for `kept` bytes the test still holds). */
  async function nothingLeft(Key: string, kept = 0): Promise<void> {
    const head = await sendError(scene.sdk.send(new HeadObjectCommand({ Bucket, Key })));
    expect(head.status).toBe(404);
    const temps = await readdir(join(fs.dir, Bucket, '.sgwtmp')).catch(() => [] as string[]);
    expect(temps.filter((n) => n !== 'multipart')).toEqual([]);
    expect(fs.free()).toBeGreaterThanOrEqual(freeAtStart - kept - 256 * 1024);
  }

  async function stillServing(): Promise<void> {
    const got = await scene.sdk.send(new GetObjectCommand({ Bucket, Key: 'keep' }));
    expect(Buffer.from((await got.Body?.transformToByteArray()) ?? []).equals(content('keep', 4096))).toBe(
      true,
    );
    const Key = `fits-${Date.now()}`;
    await scene.sdk.send(new PutObjectCommand({ Bucket, Key, Body: content(Key, 8 * MiB) }));
    await scene.sdk.send(new DeleteObjectCommand({ Bucket, Key }));
  }

  it('HTTP PUT larger than the free space: 507, the exact message, nothing partial', async () => {
    const put = scene.sdk.send(
      new PutObjectCommand({ Bucket, Key: 'too-big', Body: content('too-big', 40 * MiB) }),
    );
    const message = await put.then(
      () => 'stored?!',
      (e: Error) => e.message,
    );
    expect(message).toBe('No space left on device.'); // s3-errors.json's message for the code
    expectFull(await sendError(put));
    await nothingLeft('too-big');
    await stillServing();
  });

  it('RDMA PUT larger than the free space: 507 without an RDMA reply, nothing partial', async () => {
    const m = client.allocate(40 * MiB);
    try {
      const err = await sendError(
        sendWithToken(
          scene.sdk,
          new PutObjectCommand({ Bucket, Key: 'rdma-too-big', Body: new Uint8Array(0) }),
          m.token(0, 40 * MiB, 'put'),
        ),
      );
      expectFull(err);
      expect(rdmaHeaders(err.headers)).toEqual([]);
    } finally {
      m.close();
    }
    await nothingLeft('rdma-too-big');
    await stillServing();
  });

  it('multipart: a part that does not fit, then a complete whose assembly does not fit: 507, upload intact, abort frees all', async () => {
    const Key = 'mp';
    const { UploadId } = await scene.sdk.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    const part = (PartNumber: number, size: number) =>
      scene.sdk.send(
        new UploadPartCommand({
          Bucket,
          Key,
          UploadId,
          PartNumber,
          Body: content(`${Key}-${PartNumber}`, size),
        }),
      );
    expectFull(await sendError(part(1, 40 * MiB)));
    const Parts: { PartNumber: number; ETag?: string | undefined }[] = [];
    for (const n of [1, 2]) Parts.push({ PartNumber: n, ETag: (await part(n, 7 * MiB)).ETag });
    // 14 MiB of parts on a 24 MiB disk: assembling another 14 MiB copy cannot fit.
    const complete = () =>
      scene.sdk.send(
        new CompleteMultipartUploadCommand({ Bucket, Key, UploadId, MultipartUpload: { Parts } }),
      );
    expectFull(await sendError(complete()));
    await nothingLeft(Key, 14 * MiB);
    expectFull(await sendError(complete())); // the claim was given back: it can be retried
    await scene.sdk.send(new AbortMultipartUploadCommand({ Bucket, Key, UploadId }));
    await nothingLeft(Key);
    await stillServing();
  });
});
