// RDMA through the s3 proxy, end to end with the real binaries: `vgwrdma --rdma-ip 127.0.0.1 s3`
// (CuServer over the s3 backend, softnic) in front of `vgwrdma posix`, and the built cuobjtest CLI
// doing a verified RDMA PUT+GET round trip against the proxy, once per upstream (a second gateway
// on posix, Ceph RGW). RDMA to the proxy, HTTP upstream: the object must land upstream, read back
// by a plain SDK client on it with the proxy's ETag and size.
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { killAllChildren, s3Client } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetaBucket, type UpstreamGateway } from './backend-s3/upstream-gateway.js';
import { suiteTitle, UPSTREAM_START_TIMEOUT_MS, UPSTREAMS, type Upstream } from './backend-s3/upstreams.js';
import { expectRdmaRoundTrip } from './helpers/cuobjtest-run.js';
import { type ProxyProcess, startProxyGateway } from './helpers/proxy-process.js';
import { upstreamFlags } from './helpers/upstream-flags.js';

const PROXY_KEYS = { access: 'rdma-proxy-access', secret: 'rdma-proxy-secret' } as const;
const MiB = 1024 * 1024;

function rdmaProxySuite(up: Upstream): void {
  const bucket = `rdma-through-proxy-${Math.random().toString(36).slice(2, 8)}`;
  let upstream: UpstreamGateway;
  let proxy: ProxyProcess;

  beforeAll(async () => {
    upstream = await up.start();
    const meta = await createMetaBucket(upstream, 'vgw-meta');
    proxy = await startProxyGateway(PROXY_KEYS, upstreamFlags(upstream, meta), ['--rdma-ip', '127.0.0.1']);
  }, UPSTREAM_START_TIMEOUT_MS);

  afterAll(async () => {
    await proxy?.stop();
    await upstream?.stop();
    killAllChildren();
  });

  it('announces RDMA and the s3 backend in the banner', () => {
    expect(proxy.stdout()).toMatch(/^\s*rdma:\s+softnic on 127\.0\.0\.1/m);
    expect(proxy.stdout()).toMatch(/^\s*backend:\s+s3 \(/m);
  });

  it('passes a verified cuobjtest RDMA PUT+GET round trip; the bytes land upstream', async () => {
    await expectRdmaRoundTrip(proxy.url, PROXY_KEYS, { bucket, key: 'roundtrip' }, '4MiB', 4 * MiB);
    // In the upstream, as the upstream itself serves it, with the ETag and size the proxy answers.
    const direct = await upstream.client.send(new GetObjectCommand({ Bucket: bucket, Key: 'roundtrip' }));
    expect((await direct.Body!.transformToByteArray()).length).toBe(4 * MiB);
    const client = s3Client(proxy.url, PROXY_KEYS);
    const viaProxy = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'roundtrip' }));
    client.destroy();
    expect(direct.ETag).toBe(viaProxy.ETag);
    expect(direct.ContentLength).toBe(viaProxy.ContentLength);
  });
}

for (const up of UPSTREAMS) {
  describe.skipIf(up.unavailable !== undefined)(
    `RDMA through \`vgwrdma --rdma-ip ... s3\` (cuobjtest round trip) → ${suiteTitle(up)}`,
    { timeout: 120_000 },
    () => rdmaProxySuite(up),
  );
}
