// Three `vgwrdma --rdma-ip 127.0.0.1 s3` gateways over one Ceph RGW (shared meta bucket): an
// object written through one gateway reads back through the others, by HTTP and by RDMA
// (cuobjclient sessions), and lands in RGW byte for byte; a multipart upload created through A
// gets a part by RDMA through B and one by HTTP through C, is completed through A and is whole.
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Session } from '@vgwrdma/cuobjclient';
import { HostClient } from '@vgwrdma/rdma-ffi';
import { settle } from '@vgwrdma/test-kit';
import { describe, expect, it } from 'vitest';
import { content } from '../helpers/object-content.js';
import { sendWithToken } from '../helpers/rdma.js';
import { rdmaStats } from '../helpers/scale-out.js';
import { scaleOutSkip, useScaleOutBucket } from '../helpers/scale-out-bucket.js';

const MiB = 1024 * 1024;
const skip = scaleOutSkip();

describe.skipIf(skip !== undefined)('three gateways, one RGW: cross-gateway reads and multipart', () => {
  const so = useScaleOutBucket('cross');
  const { Bucket } = so;
  const sdk = (i: number) => so.sdk(i);
  const upstreamBytes = async (Key: string) => {
    const got = await so.scene.upstream.send(new GetObjectCommand({ Bucket, Key }));
    return Buffer.from((await got.Body?.transformToByteArray()) ?? []);
  };
  const httpBytes = async (i: number, Key: string) => {
    const got = await sdk(i).send(new GetObjectCommand({ Bucket, Key }));
    return Buffer.from((await got.Body?.transformToByteArray()) ?? []);
  };

  it('written through each gateway, read through the other two by HTTP and RDMA; stored in RGW', async () => {
    const size = 3 * MiB + 17;
    const session = await Session.open({ size });
    try {
      for (let writer = 0; writer < 3; writer++) {
        const readers = [0, 1, 2].filter((i) => i !== writer);
        const httpKey = `http-by-${writer}`;
        const rdmaKey = `rdma-by-${writer}`;
        await sdk(writer).send(
          new PutObjectCommand({
            Bucket,
            Key: httpKey,
            Body: content(httpKey, size),
          }),
        );
        const put = await session.upload(sdk(writer), Bucket, rdmaKey, content(rdmaKey, size));
        expect(put.via).toBe('rdma');
        for (const Key of [httpKey, rdmaKey]) {
          const want = content(Key, size);
          expect((await upstreamBytes(Key)).equals(want), `${Key} in RGW`).toBe(true);
          for (const r of readers) {
            expect((await httpBytes(r, Key)).equals(want), `${Key} over HTTP from gw${r + 1}`).toBe(true);
            const dst = new Uint8Array(size);
            const got = await session.download(sdk(r), Bucket, Key, dst);
            expect(got.via, `${Key} by RDMA from gw${r + 1}`).toBe('rdma');
            expect(Buffer.from(dst).equals(want), `${Key} by RDMA from gw${r + 1}`).toBe(true);
          }
        }
      }
    } finally {
      session.close();
    }
    // Every gateway moved RDMA payloads itself: each took RDMA PUTs and GETs.
    for (const [i, gw] of so.scene.gateways.entries()) {
      const { server, pool } = await settle(
        () => rdmaStats(gw),
        (s) => s.server.buffersInUse === 0 && s.pool.inUse === 0,
        { what: `gw${i + 1}: buffers back after the transfers` },
      );
      expect(server.buffersInUse).toBe(0);
      expect(pool.inUse).toBe(0);
    }
    // 3 writers × 2 objects × 2 readers × (HTTP + RDMA) through RGW: past 60 s on a loaded machine.
  }, 300_000);

  it('multipart: created through A, part 1 by RDMA through B, part 2 by HTTP through C, completed through A', async () => {
    const Key = 'multipart-across';
    const partSize = 5 * MiB;
    const whole = content(Key, 2 * partSize + 1234);
    const p1 = whole.subarray(0, partSize);
    const p2 = whole.subarray(partSize);
    const { UploadId } = await sdk(0).send(new CreateMultipartUploadCommand({ Bucket, Key }));
    const host = new HostClient();
    const region = host.allocate(partSize);
    try {
      region.bytes.set(p1);
      const viaB = await sendWithToken<{ ETag?: string }>(
        sdk(1),
        new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 1, Body: new Uint8Array(0) }),
        region.token(0, partSize, 'put'),
      );
      expect(viaB.headers['x-amz-rdma-reply']).toBe('200');
      const viaC = await sdk(2).send(
        new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: 2, Body: p2 }),
      );
      await sdk(0).send(
        new CompleteMultipartUploadCommand({
          Bucket,
          Key,
          UploadId,
          MultipartUpload: {
            Parts: [
              { PartNumber: 1, ETag: viaB.output.ETag },
              { PartNumber: 2, ETag: viaC.ETag },
            ],
          },
        }),
      );
    } finally {
      region.close();
      host.close();
    }
    expect((await upstreamBytes(Key)).equals(whole), 'the completed object in RGW').toBe(true);
    // (RGW 16.2 answers CompleteMultipartUpload with an empty ETag element, so the multipart
    // ETag is checked on a HEAD through another gateway.)
    expect((await sdk(2).send(new HeadObjectCommand({ Bucket, Key }))).ETag).toMatch(/-2"$/);
    for (const i of [1, 2])
      expect((await httpBytes(i, Key)).equals(whole), `read through gw${i + 1}`).toBe(true);
    const open = await so.scene.upstream.send(new ListMultipartUploadsCommand({ Bucket }));
    expect(open.Uploads ?? []).toEqual([]);
  });
});
