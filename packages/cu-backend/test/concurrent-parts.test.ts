// Concurrent RDMA UploadParts of one multipart upload (issue 31, a managed transfer's parts):
//   - they run at the same time all the way into the backend — nothing (a lock, the pool, the
//     per-agent cap, one file) makes one part wait for another: K parts each hold their first
//     chunk inside the backend until all K are there (a barrier; a serialised gateway would never
//     get there and the test would fail at its timeout), the pool's peakInUse says K overlapped,
//     and the completed object is byte-exact with the multipart ETag;
//   - one agent over its cap gets a busy decline (501, x-amz-rdma-reply 501, the reason header,
//     Retry-After) with nothing stored, and the same part retried with a fresh token once a slot
//     is free is stored.
// Real PosixBackend on a temp dir, real RdmaServer, the client's memory in a HostClient child.
import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { type Backend, DelegatingBackend, type RequestContext } from '@vgwrdma/backend-contract';
import type { PosixBackend } from '@vgwrdma/backend-posix';
import { BufferPool } from '@vgwrdma/bufferpool';
import { RdmaServer } from '@vgwrdma/rdma-ffi';
import { afterAll, describe, expect, it } from 'vitest';
import { CuServer } from '../src/index.js';
import type { ClientProcess } from './client-process.js';
import { contextOf, cuScene, descriptor, rejection } from './cu-scene.js';

const MiB = 1 << 20;
const K = 4;
const OWNER = 'cu-owner';
const bucket = 'parts-bucket';

const ctx = contextOf(OWNER, 'parts');

/** Holds each part's first body chunk until `gate` opens; counts parts inside the backend. */
class GatedBackend extends DelegatingBackend {
  inside = 0;
  peakInside = 0;
  gate: Promise<void> = Promise.resolve();
  private arrived: (() => void) | undefined;
  waitFor = 0;
  /** Resolves once `n` parts hold a chunk inside the backend at the same time. */
  allInside(n: number): Promise<void> {
    this.waitFor = n;
    return new Promise((resolve) => {
      this.arrived = resolve;
    });
  }
  override uploadPart(c: RequestContext, input: Parameters<Backend['uploadPart']>[1]) {
    let first = true;
    const t = new Transform({
      transform: (chunk, _enc, cb) => {
        if (!first) return cb(null, chunk);
        first = false;
        this.inside++;
        this.peakInside = Math.max(this.peakInside, this.inside);
        if (this.inside >= this.waitFor) this.arrived?.();
        this.gate.then(() => {
          this.inside--;
          cb(null, chunk);
        }, cb);
      },
    });
    t.on('error', () => {});
    input.body.on('error', (e) => t.destroy(e));
    return this.inner.uploadPart(c, { ...input, body: input.body.pipe(t) });
  }
}

describe('concurrent RDMA UploadParts of one upload', () => {
  let client: ClientProcess;
  let posix: PosixBackend;
  cuScene({ prefix: 'cu-parts-', bucket: { name: bucket, owner: OWNER, ctx } }, (s) => {
    ({ client, posix } = s);
  });
  afterAll(async () => {
    await posix?.shutdown();
  });

  it(`${K} parts from one agent are inside the backend at once; the object is byte-exact`, async () => {
    const gated = new GatedBackend(posix);
    const server = new RdmaServer({ channels: 4 * K, ioTimeoutMs: 10_000 });
    const pool = BufferPool.create(server, { count: K, size: 4 * MiB });
    // The per-agent cap at the pool size: the ClientProcess is one agent.
    const cu = new CuServer({ server, pool, poolWaitMs: 60_000, chunkSize: MiB, maxPerAgent: K }, gated);
    try {
      const partSize = 5 * MiB + 7;
      const region = (await client.alloc(K * partSize)).region;
      await client.fill(region, 31);
      const up = await cu.createMultipartUpload(ctx(), { bucket, key: 'parallel' });
      let open!: () => void;
      gated.gate = new Promise((r) => {
        open = r;
      });
      const together = gated.allInside(K);
      const parts = Array.from({ length: K }, async (_, i) => {
        const token = await client.token(region, i * partSize, partSize, 'put');
        const out = await cu.uploadPart(ctx(descriptor(token)), {
          bucket,
          key: 'parallel',
          uploadId: up.uploadId,
          partNumber: i + 1,
          body: Readable.from([]),
        });
        return { partNumber: i + 1, etag: out.etag };
      });
      await together; // every part holds a chunk inside the backend now
      expect(gated.inside).toBe(K);
      expect(pool.stats().inUse).toBe(K);
      open();
      const done = await Promise.all(parts);
      expect(gated.peakInside).toBe(K);
      expect(pool.stats().peakInUse).toBe(K);
      const md5s = [];
      for (let i = 0; i < K; i++) {
        const hex = await client.hash(region, { offset: i * partSize, size: partSize });
        expect(done[i]?.etag).toBe(`"${hex}"`);
        md5s.push(Buffer.from(hex, 'hex'));
      }
      const out = await cu.completeMultipartUpload(ctx(), {
        bucket,
        key: 'parallel',
        uploadId: up.uploadId,
        parts: done,
      });
      expect(out.etag).toBe(`"${createHash('md5').update(Buffer.concat(md5s)).digest('hex')}-${K}"`);
      const h = createHash('md5');
      for await (const c of (await posix.getObject(ctx(), { bucket, key: 'parallel' })).body)
        h.update(c as Buffer);
      expect(h.digest('hex')).toBe(await client.hash(region));
    } finally {
      await cu.closeRdma().catch(() => {});
    }
  });

  it('an agent over its cap gets a busy decline it can retry; the retry with a fresh token is stored', async () => {
    const gated = new GatedBackend(posix);
    const server = new RdmaServer({ channels: 8, ioTimeoutMs: 10_000 });
    const pool = BufferPool.create(server, { count: 2, size: 4 * MiB });
    const cu = new CuServer({ server, pool, poolWaitMs: 50, chunkSize: MiB, maxPerAgent: 1 }, gated);
    try {
      const partSize = 5 * MiB;
      const region = (await client.alloc(2 * partSize)).region;
      await client.fill(region, 32);
      const up = await cu.createMultipartUpload(ctx(), { bucket, key: 'capped' });
      let open!: () => void;
      gated.gate = new Promise((r) => {
        open = r;
      });
      const inside = gated.allInside(1);
      const send = async (partNumber: number) =>
        cu.uploadPart(
          ctx(descriptor(await client.token(region, (partNumber - 1) * partSize, partSize, 'put'))),
          {
            bucket,
            key: 'capped',
            uploadId: up.uploadId,
            partNumber,
            body: Readable.from([]),
          },
        );
      const first = send(1);
      await inside; // part 1 holds the agent's only slot
      const err = await rejection(send(2));
      expect(err.status).toBe(501);
      expect(err.headers).toMatchObject({
        'x-amz-rdma-reply': '501',
        'x-amz-rdma-decline-reason': 'agent-busy',
        'retry-after': '1',
      });
      expect(cu.stats().declines['agent-busy']).toBe(1);
      const listed = await posix.listParts(ctx(), {
        bucket,
        key: 'capped',
        uploadId: up.uploadId,
        maxParts: 10,
      });
      expect(listed.parts.map((p) => p.partNumber)).toEqual([]); // nothing of part 2 stored
      open();
      const one = await first;
      const two = await send(2); // the client's retry, a fresh token
      expect(two.etag).toBe(`"${await client.hash(region, { offset: partSize, size: partSize })}"`);
      const out = await cu.completeMultipartUpload(ctx(), {
        bucket,
        key: 'capped',
        uploadId: up.uploadId,
        parts: [
          { partNumber: 1, etag: one.etag },
          { partNumber: 2, etag: two.etag },
        ],
      });
      expect(out.etag).toMatch(/-2"$/);
    } finally {
      await cu.closeRdma().catch(() => {});
    }
  });
});
