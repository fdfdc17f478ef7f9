// `vgwrdma posix --etag-mode parts` end to end: the built gateway with RDMA on (softnic), a
// cuobjclient Session uploading by RDMA and the SDK over HTTP. A body of several parts gets the
// multipart-form ETag (reference computed here), is read back whole and by part number; the same
// tree served afterwards by a gateway in the default md5 mode answers the same ETag and parts.
import { createHash, randomFillSync } from 'node:crypto';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { Session } from '@vgwrdma/cuobjclient';
import { type Scene, type SceneOptions, startScene } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { afterAll, describe, expect } from 'vitest';

const MiB = 1024 * 1024;
const PART = 5 * MiB;
const SIZE = 3 * PART + 4096; // four parts
const Bucket = 'etag-mode';
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest();

function partsEtag(body: Uint8Array, partSize: number): string {
  const sums: Buffer[] = [];
  for (let at = 0; at < body.length; at += partSize) sums.push(md5(body.subarray(at, at + partSize)));
  return `"${md5(Buffer.concat(sums)).toString('hex')}-${sums.length}"`;
}

/** RDMA on (softnic), and the SDK sending no checksum of its own. */
const withRdma: SceneOptions = {
  rdma: true,
  globalArgs: ['--pool-buf-count', '4'],
  sdk: { requestChecksumCalculation: 'WHEN_REQUIRED' },
};
const test = sceneTest({
  ...withRdma,
  posixArgs: ['--etag-mode', 'parts', '--etag-part-size', '5MiB'],
  buckets: [Bucket],
});

describe('vgwrdma posix --etag-mode parts', () => {
  const data = randomFillSync(new Uint8Array(SIZE));
  let md5Mode: Scene | undefined;
  afterAll(() => md5Mode?.stop());

  test('gives an RDMA PUT and an HTTP PUT of several parts the multipart-form ETag', async ({ s3: sdk }) => {
    const session = await Session.open({ size: SIZE });
    try {
      const up = await session.upload(sdk, Bucket, 'by-rdma', data);
      expect(up.via).toBe('rdma');
      expect(up.etag).toBe(partsEtag(data, PART));
      const dst = new Uint8Array(SIZE);
      const down = await session.download(sdk, Bucket, 'by-rdma', dst);
      expect(down.via).toBe('rdma');
      expect(Buffer.from(dst).equals(Buffer.from(data))).toBe(true);
    } finally {
      session.close();
    }
    const put = await sdk.send(new PutObjectCommand({ Bucket, Key: 'by-http', Body: data }));
    expect(put.ETag).toBe(partsEtag(data, PART));
  });

  test('is served alike by a gateway in md5 mode over the same tree', async ({ scene }) => {
    await scene.gw.stop();
    md5Mode = await startScene({ ...withRdma, root: scene.root });
    const sdk = md5Mode.s3;
    for (const Key of ['by-rdma', 'by-http']) {
      const head = await sdk.send(new HeadObjectCommand({ Bucket, Key, PartNumber: 4 }));
      expect(head.ETag).toBe(partsEtag(data, PART));
      expect(head.PartsCount).toBe(4);
      expect(head.ContentLength).toBe(4096);
      const part2 = await sdk.send(new GetObjectCommand({ Bucket, Key, PartNumber: 2 }));
      const bytes = Buffer.from((await part2.Body?.transformToByteArray()) ?? []);
      expect(bytes.equals(Buffer.from(data.subarray(PART, 2 * PART)))).toBe(true);
    }
    // New writes in md5 mode take the whole MD5 again.
    const put = await sdk.send(new PutObjectCommand({ Bucket, Key: 'after', Body: data }));
    expect(put.ETag).toBe(`"${md5(data).toString('hex')}"`);
  });
});
