// BodyDigest / digestStream: the ETag and checksums computed over an upload, and the checks
// (length, Content-MD5, expected checksum) that must pass before anything is stored.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BodyDigest, digestStream } from '../../src/checksums/body-digest.js';
import { CHECKSUMS } from '../../src/checksums/registry.js';

const data = Buffer.from('the quick brown fox jumps over the lazy dog');
const crc = (alg: keyof typeof CHECKSUMS, d: Buffer) => {
  const h = CHECKSUMS[alg].create();
  h.update(d);
  return h.digest();
};
const code = (fn: () => unknown) => {
  try {
    fn();
    return 'ok';
  } catch (err) {
    return (err as { code: string }).code;
  }
};

describe('BodyDigest', () => {
  it('computes the quoted MD5 ETag, size and CRC64NVME by default (FULL_OBJECT)', () => {
    const d = new BodyDigest();
    d.update(data.subarray(0, 10));
    d.update(data.subarray(10));
    const out = d.finish();
    expect(out.etag).toBe(`"${createHash('md5').update(data).digest('hex')}"`);
    expect(out.md5).toBe(createHash('md5').update(data).digest('base64'));
    expect(out.size).toBe(data.length);
    expect(out.checksums).toEqual({ CRC64NVME: crc('CRC64NVME', data) });
    expect(out.checksumType).toBe('FULL_OBJECT');
  });

  it('computes the requested algorithm instead of the default', () => {
    const d = new BodyDigest({ checksum: { algorithm: 'SHA256' } });
    d.update(data);
    expect(d.finish().checksums).toEqual({ SHA256: createHash('sha256').update(data).digest('base64') });
  });

  it('computes no checksum when the default is turned off', () => {
    const d = new BodyDigest({ defaultAlgorithm: null });
    d.update(data);
    const out = d.finish();
    expect(out.checksums).toEqual({});
    expect(out.checksumType).toBeUndefined();
  });

  it('answers IncompleteBody when the body is shorter or longer than Content-Length', () => {
    for (const contentLength of [data.length - 1, data.length + 1]) {
      const d = new BodyDigest({ contentLength });
      d.update(data);
      expect(code(() => d.finish())).toBe('IncompleteBody');
    }
  });

  it('answers BadDigest on a Content-MD5 mismatch, and accepts a match', () => {
    const bad = new BodyDigest({ contentMD5: createHash('md5').update('x').digest('base64') });
    bad.update(data);
    expect(code(() => bad.finish())).toBe('BadDigest');
    const good = new BodyDigest({ contentMD5: createHash('md5').update(data).digest('base64') });
    good.update(data);
    expect(code(() => good.finish())).toBe('ok');
  });

  it('answers BadDigest naming the algorithm on a checksum mismatch; reads expected() only at the end', () => {
    let asked = 0;
    const d = new BodyDigest({
      checksum: {
        algorithm: 'CRC32C',
        expected: () => {
          asked++;
          return crc('CRC32C', Buffer.from('other'));
        },
      },
    });
    d.update(data);
    expect(asked).toBe(0);
    let err: unknown;
    try {
      d.finish();
    } catch (e) {
      err = e;
    }
    expect(asked).toBe(1);
    expect(err).toMatchObject({ code: 'BadDigest', status: 400 });
    expect((err as Error).message).toContain('CRC32C');
  });
});

describe('digestStream', () => {
  it('returns the bytes with the digest', async () => {
    const out = await digestStream(Readable.from([data.subarray(0, 5), data.subarray(5)]), {
      checksum: { algorithm: 'CRC32', expected: () => crc('CRC32', data) },
    });
    expect(out.data.equals(data)).toBe(true);
    expect(out.checksums.CRC32).toBe(crc('CRC32', data));
  });

  it('rejects with the stream error when the body fails', async () => {
    const body = new Readable({
      read() {
        this.destroy(new Error('boom'));
      },
    });
    await expect(digestStream(body)).rejects.toThrow('boom');
  });
});
