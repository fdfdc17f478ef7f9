// The ETag digest in both modes against references computed here with node:crypto: md5 is the
// whole body's MD5; parts is S3's multipart form over fixed-size parts for a body of more than
// one part, and the plain MD5 for a body of one. Chunks of odd sizes cross part boundaries, and
// every `done` callback must run.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { etagDigest, MD5_ETAG } from '../../src/checksums/etag-digest.js';

const PART = 64 * 1024;
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest();

function partsReference(body: Buffer, partSize: number): { etag: string; ends: number[] } {
  const parts: Buffer[] = [];
  const ends: number[] = [];
  for (let at = 0; at < body.length; at += partSize) {
    const end = Math.min(body.length, at + partSize);
    parts.push(md5(body.subarray(at, end)));
    ends.push(end);
  }
  if (parts.length <= 1) return { etag: `"${md5(body).toString('hex')}"`, ends: [] };
  return { etag: `"${md5(Buffer.concat(parts)).toString('hex')}-${parts.length}"`, ends };
}

/** Feeds `body` in chunks of the given sizes (cycled), counting the `done` callbacks. */
async function feed(body: Buffer, sizes: number[], mode = { kind: 'parts', partSize: PART } as const) {
  const d = etagDigest(mode, body.length);
  let calls = 0;
  let dones = 0;
  for (let at = 0, i = 0; at < body.length; i++) {
    const n = Math.min(sizes[i % sizes.length] as number, body.length - at);
    calls++;
    d.update(body.subarray(at, at + n), () => dones++);
    at += n;
    await d.backpressure();
  }
  const out = await d.result();
  return { out, calls, dones };
}

describe('etagDigest', () => {
  it('md5 mode: the whole body MD5, whatever the chunking', async () => {
    const body = randomBytes(300_001);
    const d = etagDigest(MD5_ETAG, body.length);
    d.update(body.subarray(0, 7));
    d.update(body.subarray(7));
    const out = await d.result();
    expect(out.etag).toBe(`"${md5(body).toString('hex')}"`);
    expect(out.md5?.equals(md5(body))).toBe(true);
    expect(out.partEnds).toBeUndefined();
  });

  it('parts mode: the multipart form over fixed parts, chunks crossing part boundaries', async () => {
    const body = randomBytes(5 * PART + 12_345);
    const ref = partsReference(body, PART);
    for (const sizes of [[1000], [PART], [PART + 1], [3 * PART], [17, 70_000, 5]]) {
      const { out, calls, dones } = await feed(body, sizes);
      expect(out.etag, `chunks ${sizes}`).toBe(ref.etag);
      expect(out.etag.endsWith('-6"')).toBe(true);
      expect(out.partEnds).toEqual(ref.ends);
      expect(out.md5).toBeUndefined();
      expect(dones).toBe(calls);
    }
  });

  it('parts mode: a body of one part (or none) keeps the plain MD5', async () => {
    for (const n of [0, 1, PART - 1, PART]) {
      const body = randomBytes(n);
      const { out } = await feed(body, [4096]);
      expect(out.etag, `${n} bytes`).toBe(`"${md5(body).toString('hex')}"`);
      expect(out.md5?.equals(md5(body))).toBe(true);
      expect(out.partEnds).toBeUndefined();
    }
  });

  it('parts mode: an exact multiple of the part size has no empty last part', async () => {
    const body = randomBytes(3 * PART);
    const { out } = await feed(body, [PART / 2]);
    expect(out.etag).toBe(partsReference(body, PART).etag);
    expect(out.partEnds).toEqual([PART, 2 * PART, 3 * PART]);
  });

  it('parts mode: hashing copies gives the same ETag, the source reusable at once', async () => {
    const body = randomBytes(4 * PART + 999);
    const d = etagDigest({ kind: 'parts', partSize: PART }, body.length);
    expect(d.prefersCopies).toBe(true);
    const slice = Buffer.alloc(50_000);
    for (let at = 0; at < body.length; at += slice.length) {
      const n = body.copy(slice, 0, at, at + slice.length);
      d.updateCopy(slice.subarray(0, n));
      slice.fill(0xee); // the lender reuses its memory at once
      await d.backpressure();
    }
    expect((await d.result()).etag).toBe(partsReference(body, PART).etag);
  });

  it('parts mode with an unknown length decides the form at the end', async () => {
    const body = randomBytes(2 * PART + 1);
    const d = etagDigest({ kind: 'parts', partSize: PART }, undefined);
    for (let at = 0; at < body.length; at += 10_000) d.update(body.subarray(at, at + 10_000));
    expect((await d.result()).etag).toBe(partsReference(body, PART).etag);
  });
});
