// kill -9 of one of three gateways while clients upload through HAProxy (HTTP PUTs, RDMA PUTs,
// multipart uploads with RDMA and HTTP parts): haproxy marks it down and routes around it, every
// client's retried request succeeds, RGW holds only whole objects (each checked byte for byte
// against its key) and no multipart upload is left open except one whose CreateMultipartUpload
// answer the kill swallowed (the client never learnt its id: docs/deployment.md, "Failure
// behaviour"), the surviving gateways' RDMA buffers and channels are all back, and the killed
// gateway, restarted on its port, is taken back by haproxy and serves again.
import { GetObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { settle } from '@vgwrdma/test-kit';
import { describe, expect, it } from 'vitest';
import { releaseClients } from '../helpers/load-round.js';
import { content, parseSpecKey } from '../helpers/object-content.js';
import { RDMA_SDK_OPTIONS, type S3Client } from '../helpers/rdma.js';
import { gatewayClient, rdmaStats } from '../helpers/scale-out.js';
import { scaleOutSkip, useScaleOutBucket } from '../helpers/scale-out-bucket.js';
import { emptyTally, REGION_BYTES, runUploadClient, type UploadTally } from '../helpers/upload-client.js';

const CLIENTS = Number(process.env.SCALE_OUT_CLIENTS ?? 6);
const QUOTA = Number(process.env.SCALE_OUT_UPLOADS ?? 6);
const VICTIM = 1; // gw2
const skip = scaleOutSkip();

/** A gateway with no RDMA transfer left: buffers come back once a native transfer has ended. */
const idle = (s: Awaited<ReturnType<typeof rdmaStats>>) =>
  s.server.buffersInUse === 0 && s.server.channelsInUse === 0 && s.pool.inUse === 0 && s.pool.waiting === 0;

describe.skipIf(skip !== undefined)(
  `kill -9 of one of three gateways under ${CLIENTS} uploading clients`,
  () => {
    const so = useScaleOutBucket('failover', { poolBufCount: 4, args: ['--rdma-pool-wait-ms', '30000'] });
    const { Bucket } = so;

    async function upstreamObjects(): Promise<{ Key: string; Size: number }[]> {
      const out: { Key: string; Size: number }[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await so.scene.upstream.send(new ListObjectsV2Command({ Bucket, ContinuationToken }));
        for (const c of page.Contents ?? []) out.push({ Key: c.Key as string, Size: c.Size ?? -1 });
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return out;
    }

    it('clients retrying through haproxy all succeed; RGW has whole objects only; survivors give back every buffer', async () => {
      const tallies: UploadTally[] = [];
      const regions = Array.from({ length: CLIENTS }, () => so.host().allocate(REGION_BYTES));
      const sdks = regions.map(() => gatewayClient(so.scene.lb.url, RDMA_SDK_OPTIONS));
      const victim = so.scene.gateways[VICTIM];
      if (!victim) throw new Error('no victim');
      let acked = 0;
      let killedAt = -1;
      const killAfter = Math.max(2, Math.floor((CLIENTS * QUOTA) / 3));
      const onAck = () => {
        acked++;
        if (acked === killAfter) {
          killedAt = acked;
          victim.child.kill('SIGKILL');
        }
      };
      try {
        await Promise.all(
          regions.map((region, id) => {
            const tally = emptyTally();
            tallies.push(tally);
            return runUploadClient({
              id,
              sdk: sdks[id] as S3Client,
              bucket: Bucket,
              region,
              quota: QUOTA,
              tally,
              onAck,
            });
          }),
        );
      } finally {
        releaseClients({ regions, sdks });
      }
      const failures = tallies.flatMap((t) => t.failures);
      const retries = tallies.reduce((a, t) => a + t.retries, 0);
      const acknowledged = tallies.flatMap((t) => t.acknowledged);
      console.log(
        `failover: ${acknowledged.length} uploads acknowledged, ${retries} retried requests, killed gw2 after ${killedAt}`,
      );
      expect(killedAt, 'the gateway was killed while uploads went on').toBe(killAfter);
      expect(await victim.exited).toMatchObject({ signal: 'SIGKILL' });
      expect(failures).toEqual([]);
      expect(acknowledged.length).toBe(CLIENTS * QUOTA);
      await so.scene.lb.waitFor('DOWN', ['gw2']);
      // gw2 was in rotation before the kill, and haproxy re-sent what it could to the others.
      const lbStats = await so.scene.lb.serverStats();
      console.log(
        `failover: haproxy per gateway (2xx answered / retries / redispatches): ${['gw1', 'gw2', 'gw3']
          .map((n) => `${n} ${lbStats[n]?.hrsp_2xx}/${lbStats[n]?.wretr}/${lbStats[n]?.wredis}`)
          .join(', ')}`,
      );
      expect(Number(lbStats.gw2?.hrsp_2xx), 'gw2 answered before it was killed').toBeGreaterThan(0);

      // RGW: every acknowledged object is there; everything there is whole.
      const stored = await upstreamObjects();
      expect(stored.map((o) => o.Key).sort()).toEqual([...acknowledged].sort());
      for (const { Key, Size } of stored) {
        const size = parseSpecKey(Key)?.size;
        expect(Size, `${Key} size in RGW`).toBe(size);
        const got = await so.scene.upstream.send(new GetObjectCommand({ Bucket, Key }));
        const bytes = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
        expect(bytes.equals(content(Key, size ?? 0)), `${Key} bytes in RGW`).toBe(true);
      }
      // Open uploads: only ones whose Create answer was lost in the kill (no client has their id).
      const open = (await so.scene.upstream.send(new ListMultipartUploadsCommand({ Bucket }))).Uploads ?? [];
      const lostCreates = new Set(tallies.flatMap((t) => [...t.createFailed]));
      for (const u of open) expect(lostCreates.has(u.Key as string), `open upload of ${u.Key}`).toBe(true);

      // The survivors: every buffer and channel back, nobody waiting.
      for (const i of [0, 2]) {
        const gw = so.scene.gateways[i] as (typeof so.scene.gateways)[number];
        const { server, pool } = await settle(() => rdmaStats(gw), idle, { what: `gw${i + 1} idle` });
        expect(server, `gw${i + 1} server`).toMatchObject({ buffersInUse: 0, channelsInUse: 0 });
        expect(pool, `gw${i + 1} pool`).toMatchObject({ count: 4, free: 4, inUse: 0, waiting: 0 });
      }

      // Restarted on its port, the victim is taken back and serves.
      const back = await so.scene.restart(VICTIM);
      await so.scene.lb.waitFor('UP', ['gw2']);
      const direct = gatewayClient(back.url, RDMA_SDK_OPTIONS);
      const Key = acknowledged[0] as string;
      const got = await direct.send(new GetObjectCommand({ Bucket, Key }));
      const bytes = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
      direct.destroy();
      expect(bytes.equals(content(Key, parseSpecKey(Key)?.size ?? 0))).toBe(true);
    }, 300_000);
  },
);
