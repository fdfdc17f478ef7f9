// Session against real gateway processes (posix + CuServer + cu-middleware over softnic): byte-
// exact round trips with a CRC32C the gateway verifies, declines (a transfer-size limit) with
// and without the HTTP fallback, and a gateway without RDMA support, whose silence is an error.

import { randomFillSync } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { EmbeddedGateway } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../src/index.js';
import { codeOf, errorOf } from './cuobj-errors.js';

const MiB = 2 ** 20;
const LIMIT = MiB; // the declining gateway moves at most 1 MiB by RDMA

describe('Session against gateway processes', () => {
  let rdma: EmbeddedGateway;
  let limited: EmbeddedGateway;
  let plain: EmbeddedGateway;
  const bucket = 'cuobj-e2e';

  beforeAll(async () => {
    [rdma, limited, plain] = await Promise.all([
      EmbeddedGateway.start(),
      EmbeddedGateway.start({ maxTransferSize: LIMIT }),
      EmbeddedGateway.start({ rdma: false }),
    ]);
    for (const g of [rdma, limited, plain])
      await g.client().send(new CreateBucketCommand({ Bucket: bucket }));
  });
  afterAll(async () => {
    await Promise.all([rdma?.stop(), limited?.stop(), plain?.stop()]);
  });

  it('upload then download moves the exact bytes; the stored object is the buffer; the gateway accepts our CRC32C', async () => {
    const s3 = rdma.client({ requestChecksumCalculation: 'WHEN_SUPPORTED' }); // SDK defaults must not matter
    await using s = await Session.open({ size: 3 * MiB + 17, checksum: 'crc32c' });
    for (const round of [1, 2]) {
      const data = randomFillSync(new Uint8Array(s.size));
      expect((await s.upload(s3, bucket, `obj-${round}`, data)).via).toBe('rdma');
      expect(Buffer.compare(await readFile(join(rdma.root, bucket, `obj-${round}`)), data)).toBe(0);
      const head = await s3.send(
        new HeadObjectCommand({ Bucket: bucket, Key: `obj-${round}`, ChecksumMode: 'ENABLED' }),
      );
      expect(head.ContentLength).toBe(s.size);
      const dst = new Uint8Array(s.size);
      const res = await s.download(s3, bucket, `obj-${round}`, dst);
      expect(res).toMatchObject({ via: 'rdma', httpStatus: 200, rdmaReply: '200', bytes: s.size });
      expect(Buffer.compare(dst, data)).toBe(0);
    }
  });

  it('with checksum set, a download checks the data against the stored CRC32C: a bit flipped on disk is caught', async () => {
    const s3 = rdma.client();
    await using s = await Session.open({ size: 256 * 1024, checksum: 'crc32c' });
    randomFillSync(s.buffer);
    await s.upload(s3, bucket, 'flip');
    expect((await s.download(s3, bucket, 'flip')).via).toBe('rdma');
    const file = await open(join(rdma.root, bucket, 'flip'), 'r+'); // same inode: metadata kept
    await file.write(Buffer.from([(s.buffer[1000] as number) ^ 0x01]), 0, 1, 1000);
    await file.close();
    expect(await codeOf(s.download(s3, bucket, 'flip'))).toBe('VGW_ERR_CUOBJ_CHECKSUM_MISMATCH');
  });

  it('a download of an object of another size fails with the gateway answer', async () => {
    const s3 = rdma.client();
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'small', Body: new Uint8Array(1000) }));
    await using s = await Session.open({ size: 4096 });
    expect(await codeOf(s.download(s3, bucket, 'small'))).toBe('VGW_ERR_CUOBJ_BYTES_MISMATCH');
    await using tiny = await Session.open({ size: 10 });
    // Larger than the token capacity: refused before any transfer, as an S3 error.
    const e = await errorOf(tiny.download(s3, bucket, 'small'));
    expect([e.code, e.gateway?.httpStatus, e.gateway?.errorCode]).toEqual([
      'VGW_ERR_CUOBJ_GATEWAY_ERROR',
      400,
      'InvalidArgument',
    ]);
  });

  it('declined PUT/GET: an error by default, the HTTP body with fallback', async () => {
    const s3 = limited.client();
    await using strict = await Session.open({ size: 2 * MiB });
    randomFillSync(strict.buffer);
    const e = await errorOf(strict.upload(s3, bucket, 'declined'));
    expect([e.code, e.gateway?.httpStatus, e.gateway?.rdmaReply, e.gateway?.errorCode]).toEqual([
      'VGW_ERR_CUOBJ_DECLINED',
      501,
      '501',
      'NotImplemented',
    ]);
    await expect(s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'declined' }))).rejects.toThrow(); // nothing stored

    await using lenient = await Session.open({ size: 2 * MiB, fallback: 'http', checksum: 'crc32' });
    const data = randomFillSync(new Uint8Array(2 * MiB));
    expect((await lenient.upload(s3, bucket, 'declined', data)).via).toBe('http');
    expect(Buffer.compare(await readFile(join(limited.root, bucket, 'declined')), data)).toBe(0);
    expect(await codeOf(strict.download(s3, bucket, 'declined'))).toBe('VGW_ERR_CUOBJ_DECLINED');
    lenient.buffer.fill(0);
    expect(await lenient.download(s3, bucket, 'declined')).toMatchObject({ via: 'http', rdmaReply: '501' });
    expect(Buffer.compare(lenient.buffer, data)).toBe(0);

    // Within the limit the same gateway moves it by RDMA.
    await using small = await Session.open({ size: LIMIT });
    expect((await small.upload(s3, bucket, 'fits')).via).toBe('rdma');
  });

  it('a gateway without RDMA: the PUT is an error (it stored an empty object), the GET falls back only when allowed', async () => {
    const s3: S3Client = plain.client();
    await using s = await Session.open({ size: 64 * 1024 });
    const e = await errorOf(s.upload(s3, bucket, 'ignored'));
    expect(e.code).toBe('VGW_ERR_CUOBJ_NO_RDMA_REPLY');
    expect(e.message).toMatch(/did not confirm RDMA offload/);
    const stored = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'ignored' }));
    expect((await stored.Body?.transformToByteArray())?.length).toBe(0);

    const data = randomFillSync(new Uint8Array(64 * 1024));
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'plain', Body: data }));
    expect(await codeOf(s.download(s3, bucket, 'plain'))).toBe('VGW_ERR_CUOBJ_NO_RDMA_REPLY');
    await using f = await Session.open({ size: 64 * 1024, fallback: 'http' });
    expect((await f.download(s3, bucket, 'plain')).via).toBe('http');
    expect(Buffer.compare(f.buffer, data)).toBe(0);
  });
});
