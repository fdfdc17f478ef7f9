// RDMA to the gateway, HTTP to the upstream: a proxy gateway PROCESS (test-kit's gateway child:
// the RDMA plugin over S3Backend, softnic transport) in front of each upstream (upstreams.ts: a
// second gateway process on posix, and Ceph RGW). cuobjclient Sessions in this process upload and
// download by RDMA; the bytes must land in the upstream (read back by a plain SDK client on it)
// and come back from it. Needs the built dist/ of the workspace packages and the shims (npm test builds).
// (Moved here from backend-s3's tests: it starts the app as the upstream.)

import { randomFillSync } from 'node:crypto';
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Session } from '@vgwrdma/cuobjclient';
import { type GatewayChild, startGatewayChild } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRdmaRoundTrip } from '../helpers/cuobjtest-run.js';
import { createMetaBucket, type UpstreamGateway } from './upstream-gateway.js';
import { suiteTitle, UPSTREAM_START_TIMEOUT_MS, UPSTREAMS, type Upstream } from './upstreams.js';

const GW = { access: 'rdma-proxy-access', secret: 'rdma-proxy-secret' };
const MiB = 1 << 20;

/** The proxy: the RDMA plugin over S3Backend (upstream: the posix gateway), 2 x 8 MiB buffers. */
function startProxy(upstream: UpstreamGateway, metaBucket: string): Promise<GatewayChild> {
  return startGatewayChild({
    access: GW.access,
    secret: GW.secret,
    backend: {
      kind: 's3',
      endpoint: upstream.endpoint,
      access: upstream.access,
      secret: upstream.secret,
      metaBucket,
    },
    rdma: { pool: { count: 2, size: 8 * MiB } },
  });
}

function rdmaSuite(up: Upstream): void {
  const tag = Math.random().toString(36).slice(2, 8);
  const bucket = `rdma-via-proxy-${tag}`;
  let upstream: UpstreamGateway;
  let proxy: GatewayChild;
  let s3: S3Client;
  let endpoint = '';

  /** The object's bytes as the upstream itself serves them (no proxy in between). */
  async function stored(b: string, key: string): Promise<Buffer> {
    const got = await upstream.client.send(new GetObjectCommand({ Bucket: b, Key: key }));
    return Buffer.from(await got.Body!.transformToByteArray());
  }

  beforeAll(async () => {
    upstream = await up.start();
    proxy = await startProxy(upstream, await createMetaBucket(upstream, 'rdma-meta'));
    endpoint = proxy.endpoint;
    s3 = new S3Client({
      endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: GW.access, secretAccessKey: GW.secret },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  }, UPSTREAM_START_TIMEOUT_MS);

  afterAll(async () => {
    s3?.destroy();
    await proxy?.stop();
    await upstream?.stop();
  });

  for (const checksum of ['crc32c', undefined] as const) {
    const title = `uploads by RDMA into the upstream and downloads by RDMA from it, byte for byte (checksum: ${checksum ?? 'none'})`;
    it(title, async () => {
      await using s = await Session.open({ size: 3 * MiB + 17, ...(checksum ? { checksum } : {}) });
      for (const round of [1, 2]) {
        const data = randomFillSync(new Uint8Array(s.size));
        const key = `obj-${round}`;
        expect((await s.upload(s3, bucket, key, data)).via).toBe('rdma');
        // The proxy kept nothing: the object is in the upstream, byte for byte.
        expect(Buffer.compare(await stored(bucket, key), data)).toBe(0);
        const head = await s3.send(
          new HeadObjectCommand({ Bucket: bucket, Key: key, ChecksumMode: 'ENABLED' }),
        );
        expect(head.ContentLength).toBe(s.size);
        const dst = new Uint8Array(s.size);
        const res = await s.download(s3, bucket, key, dst);
        expect(res).toMatchObject({ via: 'rdma', rdmaReply: '200', bytes: s.size });
        expect(Buffer.compare(dst, data)).toBe(0);
      }
    });
  }

  it('passes a cuobjtest round trip (RDMA PUT and GET, verified) through the proxy', async () => {
    await expectRdmaRoundTrip(
      endpoint,
      GW,
      { bucket: `cuobjtest-proxy-${tag}`, key: 'roundtrip' },
      '2MiB',
      2 * MiB,
    );
    // The object cuobjtest wrote went through the proxy into the upstream.
    expect((await stored(`cuobjtest-proxy-${tag}`, 'roundtrip')).length).toBe(2 * MiB);
  });
}

for (const up of UPSTREAMS) {
  describe.skipIf(up.unavailable !== undefined)(
    `RDMA through the s3 proxy (CuServer over S3Backend) → ${suiteTitle(up)}`,
    () => rdmaSuite(up),
  );
}
