// The Ceph RGW fixture against real Ceph daemons: the run's shared cluster serves the SDK for
// two distinct users and a user made on the spot, its pids are live daemons; a private cluster is
// torn down whole (no process, no directory) once the process that owns it ends.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListBucketsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive } from '../src/ceph-rgw-state.js';
import {
  cephRgwUnavailable,
  killAllChildren,
  makeTempDir,
  removeDir,
  rgwClient,
  sharedCephRgw,
  startPrivateCephRgw,
  track,
} from '../src/index.js';

const unavailable = cephRgwUnavailable();

afterAll(() => killAllChildren());

async function until(what: string, timeoutMs: number, probe: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(unavailable !== undefined)(
  `Ceph RGW fixture${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  () => {
    it('the shared RGW stores and serves objects per user', { timeout: 240_000 }, async () => {
      const rgw = await sharedCephRgw();
      expect(rgw.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(rgw.region).toBe('us-east-1');
      expect(rgw.main.accessKeyId).not.toBe(rgw.alt.accessKeyId);
      expect(await sharedCephRgw()).toBe(rgw);

      const bucket = `i21-fixture-${process.pid}-${Date.now()}`;
      const main = rgwClient(rgw);
      await main.send(new CreateBucketCommand({ Bucket: bucket }));
      const body = Buffer.from(`fixture object ${bucket}`);
      const put = await main.send(new PutObjectCommand({ Bucket: bucket, Key: 'a/b.txt', Body: body }));
      const got = await main.send(new GetObjectCommand({ Bucket: bucket, Key: 'a/b.txt' }));
      expect(Buffer.from(await got.Body!.transformToByteArray())).toEqual(body);
      expect(got.ETag).toBe(put.ETag);

      const alt = rgwClient(rgw, rgw.alt);
      await expect(alt.send(new GetObjectCommand({ Bucket: bucket, Key: 'a/b.txt' }))).rejects.toMatchObject({
        name: 'AccessDenied',
      });
      const fresh = await rgw.createUser(`i21-fixture-user-${process.pid}-${Date.now()}`);
      const listed = await rgwClient(rgw, fresh).send(new ListBucketsCommand({}));
      expect(listed.Buckets ?? []).toEqual([]);

      const pids = rgw.pids();
      expect(pids).toHaveLength(3);
      for (const pid of pids) expect(isAlive(pid)).toBe(true);
    });

    it('a cluster is torn down whole once its owner ends', { timeout: 240_000 }, async () => {
      const dir = await makeTempDir('vgw-rgw-private-');
      const owner = track(spawn('sleep', ['600'], { stdio: 'ignore' }));
      try {
        const { rgw, supervisor } = await startPrivateCephRgw(dir, owner.pid);
        const client = rgwClient(rgw);
        await client.send(new CreateBucketCommand({ Bucket: 'i21-private' }));
        await client.send(new PutObjectCommand({ Bucket: 'i21-private', Key: 'k', Body: 'v' }));
        const pids = [...rgw.pids(), supervisor];
        expect(pids).toHaveLength(4);

        owner.kill('SIGKILL');
        await until('every Ceph process gone', 30_000, () => pids.every((pid) => !isAlive(pid)));
        await until('the cluster directory removed', 5_000, () => !existsSync(dir));
      } finally {
        owner.kill('SIGKILL');
        await removeDir(dir);
      }
    });
  },
);
