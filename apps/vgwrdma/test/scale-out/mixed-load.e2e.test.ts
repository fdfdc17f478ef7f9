// A mixed load across three gateways over one RGW: SCALE_OUT_LOAD_CLIENTS clients (default 6), in
// rounds of SCALE_OUT_LOAD_SECONDS (default 6; more rounds until 2 reads and 2 RDMA transfers per
// client were done) run HTTP and RDMA PUT/GET, LIST and DELETE through HAProxy,
// which spreads each request over the gateways round robin, so a client's read usually lands on
// another gateway than its write. Every read is verified (load-client.ts): 0 errors, 0 corrupt
// reads, every gateway served a share, and afterwards every gateway's RDMA buffers are back.
import { settle } from '@vgwrdma/test-kit';
import { describe, expect, it } from 'vitest';
import { emptyCounts, LOAD_REGION } from '../helpers/load-client.js';
import { loadRound, releaseClients } from '../helpers/load-round.js';
import { RDMA_SDK_OPTIONS } from '../helpers/rdma.js';
import { gatewayClient, rdmaStats } from '../helpers/scale-out.js';
import { scaleOutSkip, useScaleOutBucket } from '../helpers/scale-out-bucket.js';

const CLIENTS = Number(process.env.SCALE_OUT_LOAD_CLIENTS ?? 6);
const SECONDS = Number(process.env.SCALE_OUT_LOAD_SECONDS ?? 6);
const POOL = 8;
/** The load goes on (in rounds of SECONDS, at most MAX_ROUNDS) until it has done this much. */
const MIN_READS = 2 * CLIENTS;
const MIN_RDMA = 2 * CLIENTS;
const MAX_ROUNDS = 10;
const skip = scaleOutSkip();

/** A gateway with no RDMA transfer left: buffers come back once a native transfer has ended. */
const idle = (s: Awaited<ReturnType<typeof rdmaStats>>) =>
  s.server.buffersInUse === 0 && s.server.channelsInUse === 0 && s.pool.inUse === 0 && s.pool.waiting === 0;

describe.skipIf(skip !== undefined)(`mixed load: ${CLIENTS} clients across three gateways`, () => {
  const so = useScaleOutBucket('load', { poolBufCount: POOL, args: ['--rdma-pool-wait-ms', '60000'] });
  const { Bucket } = so;

  it(
    'every read verified: 0 errors, 0 corrupt reads, every gateway answered a share',
    async () => {
      const before = await Promise.all(so.scene.gateways.map((g) => rdmaStats(g)));
      const counts = emptyCounts();
      const regions = Array.from({ length: CLIENTS }, () => so.host().allocate(LOAD_REGION));
      const sdks = regions.map(() =>
        gatewayClient(so.scene.lb.url, {
          ...RDMA_SDK_OPTIONS,
          requestHandler: { connectionTimeout: 30_000 },
        }),
      );
      // Rounds of SECONDS until the load has read back enough (a loaded machine may need more
      // than one); each round's clients write under prefixes of their own.
      const reads = () => counts.ops['http-get'] + counts.ops['rdma-get'];
      const rdma = () => counts.ops['rdma-put'] + counts.ops['rdma-get'];
      let rounds = 0;
      try {
        while (rounds < MAX_ROUNDS && (rounds === 0 || reads() < MIN_READS || rdma() < MIN_RDMA)) {
          const deadline = Date.now() + SECONDS * 1000;
          await loadRound({ regions, sdks, bucket: Bucket, counts }, deadline, rounds++ * CLIENTS);
        }
      } finally {
        releaseClients({ regions, sdks });
      }
      // Settled: each gateway done with the last transfers (a moment earlier, one may still hold a buffer).
      const after = await Promise.all(
        so.scene.gateways.map((g, i) =>
          settle(() => rdmaStats(g), idle, { what: `gw${i + 1} idle after the load` }),
        ),
      );
      const rdmaOps = after.map(
        (a, i) =>
          a.server.rdmaPuts +
          a.server.rdmaGets -
          (before[i]?.server.rdmaPuts ?? 0) -
          (before[i]?.server.rdmaGets ?? 0),
      );
      const total = Object.values(counts.ops).reduce((a, b) => a + b, 0);
      console.log(
        `scale-out load: ${JSON.stringify({ clients: CLIENTS, seconds: SECONDS, rounds, total, byOperation: counts.ops, rdmaPerGateway: rdmaOps, errors: counts.errors, corruptReads: counts.corruptReads, declines: counts.declines })}`,
      );
      expect(counts.samples).toEqual([]);
      expect(counts.errors).toBe(0);
      expect(counts.corruptReads).toBe(0);
      expect(reads(), `reads in ${rounds} rounds`).toBeGreaterThanOrEqual(MIN_READS);
      expect(rdma(), `RDMA transfers in ${rounds} rounds`).toBeGreaterThanOrEqual(MIN_RDMA);
      // Round robin spread the requests: every gateway answered a share (haproxy's counters).
      const served = await so.scene.lb.serverStats();
      for (const i of [1, 2, 3])
        expect(Number(served[`gw${i}`]?.hrsp_2xx), `gw${i} answered`).toBeGreaterThan(0);
      for (const [i, a] of after.entries()) {
        expect(a.server, `gw${i + 1}`).toMatchObject({ buffersInUse: 0, channelsInUse: 0 });
        expect(a.pool, `gw${i + 1}`).toMatchObject({ count: POOL, free: POOL, inUse: 0, waiting: 0 });
      }
    },
    MAX_ROUNDS * SECONDS * 1000 + 120_000,
  );
});
