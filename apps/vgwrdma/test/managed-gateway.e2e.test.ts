// The gateway side of managed transfers (issue 31), end to end: the built app with RDMA over
// softnic, driven by cuobjclient's TransferManager (concurrent RDMA UploadParts, one session —
// one agent — per part in flight), objects read back over plain HTTP.
//   - A pool of one buffer and no wait: parts beyond it are declined as busy (501 + the reason
//     + Retry-After) and the manager retries them; the upload completes byte-exact with the
//     multipart ETag, and every retry the client counted is a pool-busy decline the gateway
//     counted (no part failed, none went by HTTP) — whatever the interleaving.
//   - CompleteMultipartUpload publishes the parts written in place (default: the parts line up),
//     assembles part files by copy_file_range (VGWRDMA_INPLACE_PARTS=off) and, with
//     VGWRDMA_COPY_RANGE=off too (as on a file system without it), by read/write: the same bytes
//     and ETag every way (backend-posix's in-place.test.ts proves which path ran).
import { createHash, randomFillSync } from 'node:crypto';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { TransferManager } from '@vgwrdma/cuobjclient';
import { type GatewayProcess, killAllChildren, type Scene, startScene } from '@vgwrdma/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { parsePrometheusText, sampleValue } from './helpers/prometheus-text.js';
import { RDMA_SDK_OPTIONS } from './helpers/rdma.js';

const MiB = 1024 * 1024;
const PART = 5 * MiB;
const Bucket = 'managed';

function metricsUrl(gw: GatewayProcess): string {
  const m = /^\s*metrics:\s+(\S+)$/m.exec(gw.stdout());
  if (!m?.[1]) throw new Error(`no metrics line in the banner:\n${gw.stdout()}`);
  return m[1];
}

/** The multipart ETag of `data` cut into PART-sized parts. */
function multipartEtag(data: Uint8Array): string {
  const md5s: Buffer[] = [];
  for (let o = 0; o < data.length; o += PART)
    md5s.push(
      createHash('md5')
        .update(data.subarray(o, o + PART))
        .digest(),
    );
  return `"${createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-${md5s.length}"`;
}

async function readOverHttp(
  sdk: S3Client,
  Key: string,
): Promise<{ body: Uint8Array; etag: string | undefined }> {
  const out = await sdk.send(new GetObjectCommand({ Bucket, Key }));
  return {
    body: await (out.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
    etag: out.ETag,
  };
}

const scenes: Scene[] = [];
afterAll(async () => {
  for (const s of scenes) await s.stop();
  killAllChildren();
});

/** An RDMA gateway (softnic) with `globalArgs`, the bucket, and an RDMA-ready SDK client. */
async function scene(globalArgs: string[], env: Record<string, string> = {}) {
  const s = await startScene({ rdma: true, globalArgs, env, sdk: RDMA_SDK_OPTIONS, buckets: [Bucket] });
  scenes.push(s);
  return { gw: s.gw, sdk: s.s3 };
}

describe('managed uploads against the gateway', () => {
  it('busy declines are retried by the client: every retry is a pool-busy decline, the object is exact', async () => {
    const { gw, sdk } = await scene([
      '--pool-buf-size',
      '8MiB',
      '--pool-buf-count',
      '1',
      '--rdma-pool-wait-ms',
      '0',
      '--metrics-port',
      '127.0.0.1:0',
    ]);
    const data = new Uint8Array(8 * PART);
    randomFillSync(data);
    const manager = new TransferManager({
      client: sdk,
      partSize: PART,
      concurrency: 4,
      declineRetries: 100,
      backoffMs: 5,
    });
    try {
      const up = await manager.upload({ bucket: Bucket, key: 'busy', source: data });
      expect(up.method).toBe('multipart');
      expect(up.httpParts).toBe(0);
      expect(up.etag).toBe(multipartEtag(data));
      const got = await readOverHttp(sdk, 'busy');
      expect(got.etag).toBe(up.etag);
      expect(Buffer.from(got.body).equals(Buffer.from(data))).toBe(true);
      const samples = parsePrometheusText(await (await fetch(metricsUrl(gw))).text());
      const put = (outcome: string, reason = '') =>
        sampleValue(samples, 'vgwrdma_rdma_transfers_total', { direction: 'put', outcome, reason });
      expect(put('done')).toBe(8);
      expect(put('failed')).toBe(0);
      expect(put('declined', 'pool-busy')).toBe(up.retries);
      expect(sampleValue(samples, 'vgwrdma_rdma_pool_buffers_peak')).toBe(1);
    } finally {
      await manager.close();
    }
  });

  it.each([
    ['parts written in place', {}],
    ['copy_file_range (VGWRDMA_INPLACE_PARTS=off)', { VGWRDMA_INPLACE_PARTS: 'off' }],
    ['read/write (VGWRDMA_COPY_RANGE=off)', { VGWRDMA_INPLACE_PARTS: 'off', VGWRDMA_COPY_RANGE: 'off' }],
  ])('Complete assembles by %s: byte-exact object, multipart ETag', async (_name, env) => {
    const { sdk } = await scene(['--pool-buf-size', '8MiB', '--pool-buf-count', '4'], env);
    const data = new Uint8Array(3 * PART + 12_345);
    randomFillSync(data);
    const manager = new TransferManager({ client: sdk, partSize: PART, concurrency: 4 });
    try {
      const up = await manager.upload({ bucket: Bucket, key: 'assembled', source: data });
      expect(up.parts).toBe(4);
      expect(up.etag).toBe(multipartEtag(data));
      const got = await readOverHttp(sdk, 'assembled');
      expect(got.etag).toBe(up.etag);
      expect(Buffer.from(got.body).equals(Buffer.from(data))).toBe(true);
    } finally {
      await manager.close();
    }
  });
});
