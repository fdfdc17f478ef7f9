// An RDMA PUT the tests expect to succeed: a client's registered region (`size` bytes, the whole
// region), as the caller filled it, goes up by RDMA; the answer must carry RDMA reply 200 and the
// MD5 of the region's bytes as the object's ETag.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { HostMemory } from '@vgwrdma/rdma-ffi';
import { expect } from 'vitest';
import { md5Hex } from './files.js';
import { type S3Client, sendWithToken } from './rdma.js';

/** PUTs `size` bytes of `region` as `Key` by RDMA and checks the reply and the ETag. */
export async function putRegion(
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
