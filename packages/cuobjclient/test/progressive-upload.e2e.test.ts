// Progress gates through a real gateway process (posix + CuServer over softnic), host memory,
// on the same-host direct path and the TCP path: the client fills its registered buffer chunk
// by chunk with pauses, publishing each chunk, while the gateway's PUT already reads — the
// object stored is byte for byte the final buffer (a READ answered early would have stored the
// 0xee filler), and the gateway had read part of it before the last chunk was published (the
// transfer really overlapped the filling). A client that stops publishing fails its own PUT
// after the stall timeout (500, nothing stored), and the gateway serves the next request. Then
// memory: 'cuda' sessions (fake CUDA runtime) with staging overlapped and not.

import { createHash, randomFillSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { HostClient } from '@vgwrdma/rdma-ffi';
import { EmbeddedGateway, FAKE_CUDART } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../src/index.js';
import { RdmaRequestError, sendWithRdma } from '../src/rdma-request.js';

const MiB = 2 ** 20;
const CHUNK = MiB; // the gateway's RDMA chunk with a 4 MiB pool buffer (a quarter of it)
const SIZE = 8 * CHUNK;
const sha = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Polls `cond` every 5 ms for up to `ms`; whether it became true. */
async function until(cond: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(5)) if (cond()) return true;
  return cond();
}

const PATHS = [
  { name: 'direct', allowDirect: true },
  { name: 'TCP', allowDirect: false },
] as const;

describe('progress gates against a gateway process', () => {
  let gw: EmbeddedGateway;
  const bucket = 'progress-e2e';

  beforeAll(async () => {
    gw = await EmbeddedGateway.start({ pool: { count: 4, size: 4 * MiB } });
    await gw.client().send(new CreateBucketCommand({ Bucket: bucket }));
  });
  afterAll(async () => {
    await gw?.stop();
  });

  describe.each(PATHS)('host memory, $name path', ({ name, allowDirect }) => {
    it('a progressive upload: the gateway reads each chunk only once it is published, while later ones are still being filled', async () => {
      using client = new HostClient({ allowDirect });
      using mem = client.allocate(SIZE);
      const data = randomFillSync(new Uint8Array(SIZE));
      mem.bytes.fill(0xee);
      mem.progress.arm('upload', { stallTimeoutMs: 5000 });
      const key = `progressive-${name}`;
      const put = sendWithRdma(
        gw.client(),
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: new Uint8Array(0) }),
        { token: mem.token(0, SIZE, 'put') },
      );
      put.catch(() => undefined);
      let servedBeforeLast = 0;
      for (let i = 0; i < SIZE / CHUNK; i++) {
        await sleep(20);
        if (i === SIZE / CHUNK - 1) {
          // Before the last chunk exists the gateway must already have read the first ones.
          expect(await until(() => mem.progress.served >= CHUNK, 5000)).toBe(true);
          servedBeforeLast = mem.progress.served;
        }
        expect(mem.progress.served).toBeLessThanOrEqual(i * CHUNK); // nothing past what was published
        mem.bytes.set(data.subarray(i * CHUNK, (i + 1) * CHUNK), i * CHUNK);
        mem.progress.publish((i + 1) * CHUNK);
      }
      const { answer } = await put;
      expect(answer.headers['x-amz-rdma-reply']).toBe('200');
      expect(servedBeforeLast).toBeGreaterThanOrEqual(CHUNK);
      expect(servedBeforeLast).toBeLessThan(SIZE);
      expect(sha(await readFile(join(gw.root, bucket, key)))).toBe(sha(data));
    });

    it('a client that stops publishing fails its own PUT after the stall timeout; the gateway serves the next one', async () => {
      using client = new HostClient({ allowDirect });
      using mem = client.allocate(SIZE);
      mem.progress.arm('upload', { stallTimeoutMs: 300 });
      mem.progress.publish(2 * CHUNK);
      const key = `stalled-${name}`;
      const err = await sendWithRdma(
        gw.client({ maxAttempts: 1 }), // the SDK would retry the 500, reading the same 2 MiB again
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: new Uint8Array(0) }),
        { token: mem.token(0, SIZE, 'put') },
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      // The gateway answers a transfer that failed after acceptance with 500 InternalError and
      // no reply header (its log names the stall); it read what was published, nothing more.
      expect(err).toBeInstanceOf(RdmaRequestError);
      expect((err as RdmaRequestError).code).toBe('VGW_ERR_CUOBJ_REQUEST_FAILED');
      const answer = (err as RdmaRequestError).answer;
      expect(answer?.status).toBe(500);
      expect(answer?.headers['x-amz-rdma-reply']).toBeUndefined();
      expect(mem.progress.served).toBe(2 * CHUNK);
      expect(mem.progress.value).toBe(2 * CHUNK);
      // nothing was stored, and the next (ungated) PUT goes through
      await expect(readFile(join(gw.root, bucket, key))).rejects.toThrow();
      mem.progress.arm('off');
      const data = randomFillSync(new Uint8Array(SIZE));
      mem.bytes.set(data);
      const ok = await sendWithRdma(
        gw.client(),
        new PutObjectCommand({ Bucket: bucket, Key: key, Body: new Uint8Array(0) }),
        { token: mem.token(0, SIZE, 'put') },
      );
      expect(ok.answer.headers['x-amz-rdma-reply']).toBe('200');
      expect(sha(await readFile(join(gw.root, bucket, key)))).toBe(sha(data));
    });
  });

  describe.each(PATHS)("memory: 'cuda' sessions (fake CUDA runtime), $name path", ({ name, allowDirect }) => {
    for (const overlap of [true, false]) {
      it(`device → object → device with staging ${overlap ? 'overlapped' : 'before/after'} the transfer`, async () => {
        const s3 = gw.client();
        await using s = await Session.open({
          size: SIZE + 5,
          memory: 'cuda',
          cudaLibrary: FAKE_CUDART,
          staging: { overlap, overlapChunkBytes: CHUNK, streams: 2 },
          host: { allowDirect },
        });
        const data = randomFillSync(new Uint8Array(s.size));
        s.copyToDevice(data);
        const key = `cuda-${name}-${overlap}`;
        const up = await s.upload(s3, bucket, key);
        expect(up).toMatchObject({ via: 'rdma', bytes: s.size, rdmaReply: '200' });
        expect(sha(await readFile(join(gw.root, bucket, key)))).toBe(sha(data));
        s.copyToDevice(new Uint8Array(s.size)); // zero the device
        const down = await s.download(s3, bucket, key);
        expect(down).toMatchObject({ via: 'rdma', rdmaReply: '200' });
        expect(down.stagingMs).toBeGreaterThanOrEqual(0);
        const back = new Uint8Array(s.size);
        s.copyFromDevice(back);
        expect(sha(back)).toBe(sha(data));
      });
    }
  });
});
