// expectRdmaPut: an RDMA PUT that must succeed — the token for the region's first `size` bytes
// sent with an empty-bodied PutObject, answered with x-amz-rdma-reply 200 and the MD5 ETag of the
// region's bytes. The tests use it as the positive control that a buffer and a channel are free.
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { HostMemory } from '@vgwrdma/rdma-ffi';
import { expect } from 'vitest';
import { md5Hex } from './files.js';
import { sendWithToken } from './rdma.js';

export async function expectRdmaPut(
  sdk: S3Client,
  Bucket: string,
  Key: string,
  region: HostMemory,
  size: number,
): Promise<void> {
  const put = await sendWithToken<{ ETag?: string }>(
    sdk,
    new PutObjectCommand({ Bucket, Key, Body: new Uint8Array(0) }),
    region.token(0, size, 'put'),
  );
  expect(put.headers['x-amz-rdma-reply']).toBe('200');
  expect(put.output.ETag).toBe(`"${md5Hex(region.bytes)}"`);
}
