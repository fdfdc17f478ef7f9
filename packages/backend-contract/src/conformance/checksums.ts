// Conformance cases: flexible checksums — CRC64NVME stored by default, each algorithm verified
// against the bytes stored (BadDigest before anything is visible) and returned with checksum mode.
import { expect } from 'vitest';
import { CHECKSUMS } from '../checksums/registry.js';
import type { ChecksumAlgorithm } from '../types/common.js';
import { CHECKSUM_ALGORITHMS } from '../types/common.js';
import { expectS3Error, type Harness, pattern } from './harness.js';

function checksumOf(alg: ChecksumAlgorithm, data: Buffer): string {
  const hasher = CHECKSUMS[alg].create();
  hasher.update(data);
  return hasher.digest();
}

export function checksumCases(h: Harness): void {
  h.case(
    'checksums.default-crc64nvme',
    'An upload naming no checksum gets CRC64NVME (FULL_OBJECT), returned with checksum mode',
    async () => {
      const b = await h.bucket('crcdef');
      const data = pattern(33_333, 5);
      const put = await h.put(b, 'k', data);
      const want = checksumOf('CRC64NVME', data);
      expect(put.checksums.CRC64NVME).toBe(want);
      const head = await h.backend.headObject(h.ctx, { bucket: b, key: 'k', checksumMode: true });
      expect(head.checksums?.CRC64NVME).toBe(want);
      expect(head.checksumType).toBe('FULL_OBJECT');
      const got = await h.read(b, 'k', { checksumMode: true });
      expect(got.checksums?.CRC64NVME).toBe(want);
    },
  );

  h.case('checksums.mode-off', 'Without checksum mode HEAD and GET return no checksums', async () => {
    const b = await h.bucket('crcoff');
    await h.put(b, 'k', 'data');
    const head = await h.backend.headObject(h.ctx, { bucket: b, key: 'k' });
    expect(head.checksums ?? {}).toEqual({});
  });

  for (const alg of CHECKSUM_ALGORITHMS) {
    h.case(
      `checksums.verified-${alg.toLowerCase()}`,
      `x-amz-checksum-${alg.toLowerCase()}: a correct value is stored and returned`,
      async () => {
        const b = await h.bucket(`ok-${alg.toLowerCase()}`);
        const data = pattern(50_000, 11);
        const want = checksumOf(alg, data);
        const put = await h.put(b, 'k', data, { checksum: { algorithm: alg, expected: () => want } });
        expect(put.checksums[alg]).toBe(want);
        const head = await h.backend.headObject(h.ctx, { bucket: b, key: 'k', checksumMode: true });
        expect(head.checksums?.[alg]).toBe(want);
      },
    );

    h.case(
      `checksums.bad-${alg.toLowerCase()}`,
      `x-amz-checksum-${alg.toLowerCase()}: a wrong value answers BadDigest and stores nothing`,
      async () => {
        const b = await h.bucket(`bad-${alg.toLowerCase()}`);
        const data = pattern(50_000, 12);
        const wrong = checksumOf(alg, Buffer.from('something else'));
        await expectS3Error(
          h.put(b, 'k', data, { checksum: { algorithm: alg, expected: () => wrong } }),
          'BadDigest',
        );
        await h.expectNoKey(b, 'k');
      },
    );
  }

  h.case(
    'checksums.trailer-absent',
    'A requested algorithm with no expected value (trailer not sent) is computed and stored',
    async () => {
      const b = await h.bucket('crcnoexp');
      const data = pattern(1000, 13);
      const put = await h.put(b, 'k', data, { checksum: { algorithm: 'CRC32C', expected: () => undefined } });
      expect(put.checksums.CRC32C).toBe(checksumOf('CRC32C', data));
      const head = await h.backend.headObject(h.ctx, { bucket: b, key: 'k', checksumMode: true });
      expect(head.checksums?.CRC32C).toBe(checksumOf('CRC32C', data));
    },
  );

  h.case(
    'checksums.trailer-late',
    'The expected checksum is read only after the body ends (aws-chunked trailer)',
    async () => {
      const b = await h.bucket('crclate');
      const data = pattern(2000, 14);
      let bodyDone = false;
      const body = (async function* () {
        yield data.subarray(0, 1000);
        yield data.subarray(1000);
        bodyDone = true;
      })();
      const { Readable } = await import('node:stream');
      const want = checksumOf('CRC32', data);
      await h.backend.putObject(h.ctx, {
        bucket: b,
        key: 'k',
        body: Readable.from(body),
        contentLength: data.length,
        checksum: {
          algorithm: 'CRC32',
          expected: () => {
            expect(bodyDone, 'expected() called before the body ended').toBe(true);
            return want;
          },
        },
      });
      expect(
        (await h.backend.headObject(h.ctx, { bucket: b, key: 'k', checksumMode: true })).checksums?.CRC32,
      ).toBe(want);
    },
  );
}
