// An RDMA PUT the fault tests expect to succeed: the client's region is filled with the key's
// content first, and the answer must carry RDMA reply 200 and the MD5 of those bytes as its ETag.
import { PutObjectCommand } from '@aws-sdk/client-s3';
import type { HostMemory } from '@vgwrdma/rdma-ffi';
import { expect } from 'vitest';
import { md5Hex } from './files.js';
import { fillContent } from './object-content.js';
import { type S3Client, sendWithToken } from './rdma.js';

/** PUTs `size` bytes of `region` (filled with Key's content) by RDMA and checks reply and ETag. */
export async function putRegion(
  sdk: S3Client,
  Bucket: string,
  Key: string,
  region: HostMemory,
  size: number,
): Promise<void> {
  fillContent(Key, region.bytes);
  const put = await sendWithToken<{ ETag?: string }>(
    sdk,
    new PutObjectCommand({ Bucket, Key, Body: new Uint8Array(0) }),
    region.token(0, size, 'put'),
  );
  expect(put.headers['x-amz-rdma-reply']).toBe('200');
  expect(put.output.ETag).toBe(`"${md5Hex(region.bytes)}"`);
}
