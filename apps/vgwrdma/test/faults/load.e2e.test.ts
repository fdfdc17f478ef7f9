// Load: LOAD_CLIENTS concurrent clients for LOAD_SECONDS run a mix of HTTP and RDMA PUT/GET, LIST
// and DELETE across sizes against one gateway, verifying every read: no errors, no corrupt read,
// no listing that disagrees with what the client wrote, and the gateway's RSS sampled throughout.
// CI runs a small load (8 clients, 4 s); `npm run stress` runs 64 clients for 60 s and also
// requires the RSS to stay flat after warm-up (LOAD_ASSERT_FLAT). Before the clock starts all
// clients PUT and GET a full region at once, so every pool buffer is resident (primeClient).
import { writeFileSync } from 'node:fs';
import { HostClient } from '@vgwrdma/rdma-ffi';
import { ROOT_CREDENTIALS, s3Client, useFaultScene } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyCounts, LOAD_REGION, primeClient } from '../helpers/load-client.js';
import { loadRound, releaseClients } from '../helpers/load-round.js';
import { RDMA_SDK_OPTIONS } from '../helpers/rdma.js';
import { sampleRss } from '../helpers/rss-curve.js';

const CLIENTS = Number(process.env.LOAD_CLIENTS ?? 8);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 4);
const ASSERT_FLAT = process.env.LOAD_ASSERT_FLAT === '1';
const RESULTS = process.env.LOAD_RESULTS_FILE;
/** Post-warm-up RSS growth tolerated as "flat" (allocator noise on a busy machine). */
const FLAT_MIB = 64;
const Bucket = 'load';

describe(`load: ${CLIENTS} clients for ${SECONDS} s, mixed HTTP and RDMA`, () => {
  const scene = useFaultScene({
    bucket: Bucket,
    // Buffers enough for the clients to queue rather than be declined.
    args: ['--pool-buf-size', '16MiB', '--pool-buf-count', '16', '--rdma-pool-wait-ms', '60000'],
  });
  let client: HostClient;

  beforeAll(() => {
    client = new HostClient();
  });
  afterAll(() => client?.close());

  it(
    'every read verified: 0 errors, 0 corrupt reads',
    async () => {
      const counts = emptyCounts();
      const regions = Array.from({ length: CLIENTS }, () => client.allocate(LOAD_REGION));
      const sdks = regions.map(() =>
        s3Client(scene.gw.url, ROOT_CREDENTIALS, {
          ...RDMA_SDK_OPTIONS,
          requestHandler: { connectionTimeout: 30_000 },
        }),
      );
      const sdkOf = (id: number) => sdks[id] as (typeof sdks)[number];
      await Promise.all(
        regions.map((region, id) => primeClient({ id, sdk: sdkOf(id), bucket: Bucket, region })),
      );
      const rss = sampleRss(scene.gw.child.pid as number, 1000, Math.max(1, SECONDS / 4));
      const started = Date.now();
      const deadline = started + SECONDS * 1000;
      try {
        await loadRound({ regions, sdks, bucket: Bucket, counts }, deadline);
      } finally {
        releaseClients({ regions, sdks });
      }
      const elapsed = (Date.now() - started) / 1000;
      const curve = rss.stop();
      const total = Object.values(counts.ops).reduce((a, b) => a + b, 0);
      const summary = {
        clients: CLIENTS,
        seconds: Math.round(elapsed * 10) / 10,
        operations: total,
        opsPerSecond: Math.round(total / elapsed),
        byOperation: counts.ops,
        writtenMB: Math.round(counts.bytesWritten / 1e6),
        readMB: Math.round(counts.bytesRead / 1e6),
        errors: counts.errors,
        corruptReads: counts.corruptReads,
        declines: counts.declines,
        errorSamples: counts.samples,
        rss: { ...curve, samples: undefined },
      };
      console.log(`load: ${JSON.stringify(summary)}`);
      if (RESULTS) writeFileSync(RESULTS, `${JSON.stringify({ ...summary, rss: curve }, null, 2)}\n`);
      expect(counts.samples).toEqual([]);
      expect(counts.errors).toBe(0);
      expect(counts.corruptReads).toBe(0);
      expect(total).toBeGreaterThan(CLIENTS);
      if (ASSERT_FLAT) expect(curve.growthMiB).toBeLessThan(FLAT_MIB);
    },
    SECONDS * 1000 + 120_000,
  );
});
