// Conformance cases: multipart uploads — the full flow and its ETag, the errors CompleteMultipart
// answers (EntityTooSmall, InvalidPart, InvalidPartOrder, NoSuchUpload), UploadPartCopy with a
// range, and GetObject by part number.
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { CHECKSUMS } from '../checksums/registry.js';
import type { CompletedPart } from '../types/multipart.js';
import { bodyOf, expectS3Error, type Harness, MiB, pattern } from './harness.js';

const md5 = (b: Buffer) => createHash('md5').update(b).digest();
const TIMEOUT = 60_000;

/** S3's multipart ETag, computed here independently of the library helper. */
function expectedETag(parts: Buffer[]): string {
  const joined = Buffer.concat(parts.map(md5));
  return `"${createHash('md5').update(joined).digest('hex')}-${parts.length}"`;
}

export function multipartCases(h: Harness): void {
  const start = async (b: string, key: string) =>
    (
      await h.backend.createMultipartUpload(h.ctx, {
        bucket: b,
        key,
        metadata: { via: 'multipart' },
        contentType: 'application/x-mp',
      })
    ).uploadId;

  const upload = async (b: string, key: string, uploadId: string, partNumber: number, data: Buffer) =>
    h.backend.uploadPart(h.ctx, {
      bucket: b,
      key,
      uploadId,
      partNumber,
      body: bodyOf(data),
      contentLength: data.length,
    });

  const complete = (b: string, key: string, uploadId: string, parts: CompletedPart[]) =>
    h.backend.completeMultipartUpload(h.ctx, { bucket: b, key, uploadId, parts });

  /** Parts 1, 2, … with these ETags. */
  const numbered = (...etags: string[]): CompletedPart[] =>
    etags.map((etag, i) => ({ partNumber: i + 1, etag }));

  const threeParts = () => [pattern(5 * MiB, 21), pattern(5 * MiB + 17, 22), pattern(MiB + 3, 23)];

  h.case(
    'multipart.full-flow',
    'Create, 3 parts (5 MiB+, last smaller), ListParts, ListMultipartUploads, Complete: ETag "<md5 of part md5s>-3", bytes exact',
    async () => {
      const b = await h.bucket('mpu');
      const uploadId = await start(b, 'big');
      const data = threeParts();
      const etags: string[] = [];
      for (const [i, part] of data.entries()) {
        const out = await upload(b, 'big', uploadId, i + 1, part);
        expect(out.etag).toBe(`"${md5(part).toString('hex')}"`);
        etags.push(out.etag);
      }

      const uploads = await h.backend.listMultipartUploads(h.ctx, { bucket: b, maxUploads: 1000 });
      expect(uploads.uploads.map((u) => [u.key, u.uploadId])).toEqual([['big', uploadId]]);

      const listed = await h.backend.listParts(h.ctx, { bucket: b, key: 'big', uploadId, maxParts: 1000 });
      expect(listed.parts.map((p) => [p.partNumber, p.etag, p.size])).toEqual(
        data.map((d, i) => [i + 1, etags[i], d.length]),
      );
      expect(listed.isTruncated).toBe(false);

      const parts: CompletedPart[] = etags.map((etag, i) => ({ partNumber: i + 1, etag }));
      const done = await complete(b, 'big', uploadId, parts);
      expect(done.etag).toBe(expectedETag(data));

      const got = await h.read(b, 'big');
      expect(got.size).toBe(data.reduce((n, d) => n + d.length, 0));
      expect(got.data.equals(Buffer.concat(data))).toBe(true);
      expect(got.etag).toBe(done.etag);
      expect(got.metadata).toEqual({ via: 'multipart' });
      expect(got.contentType).toBe('application/x-mp');
      const head = await h.backend.headObject(h.ctx, { bucket: b, key: 'big' });
      expect(head.partsCount).toBe(3);

      const after = await h.backend.listMultipartUploads(h.ctx, { bucket: b, maxUploads: 1000 });
      expect(after.uploads).toEqual([]);
    },
    TIMEOUT,
  );

  h.case(
    'multipart.complete-repeat',
    'Repeating CompleteMultipartUpload with the same parts succeeds with the same ETag',
    async () => {
      const b = await h.bucket('mprep');
      const uploadId = await start(b, 'k');
      const data = [pattern(5 * MiB, 31), pattern(1000, 32)];
      const parts: CompletedPart[] = [];
      for (const [i, d] of data.entries())
        parts.push({ partNumber: i + 1, etag: (await upload(b, 'k', uploadId, i + 1, d)).etag });
      const first = await complete(b, 'k', uploadId, parts);
      const second = await complete(b, 'k', uploadId, parts);
      expect(second.etag).toBe(first.etag);
      expect((await h.read(b, 'k')).data.equals(Buffer.concat(data))).toBe(true);
    },
    TIMEOUT,
  );

  h.case(
    'multipart.crc64nvme-full-object',
    'A multipart object carries a FULL_OBJECT CRC64NVME of all its bytes',
    async () => {
      const b = await h.bucket('mpcrc');
      const uploadId = await start(b, 'k');
      const data = [pattern(5 * MiB, 41), pattern(777, 42)];
      const parts: CompletedPart[] = [];
      for (const [i, d] of data.entries())
        parts.push({ partNumber: i + 1, etag: (await upload(b, 'k', uploadId, i + 1, d)).etag });
      await complete(b, 'k', uploadId, parts);
      const hasher = CHECKSUMS.CRC64NVME.create();
      for (const d of data) hasher.update(d);
      const head = await h.backend.headObject(h.ctx, { bucket: b, key: 'k', checksumMode: true });
      expect(head.checksums?.CRC64NVME).toBe(hasher.digest());
      expect(head.checksumType).toBe('FULL_OBJECT');
    },
    TIMEOUT,
  );

  h.case(
    'multipart.abort',
    'AbortMultipartUpload discards the upload: later calls answer NoSuchUpload (404), no object',
    async () => {
      const b = await h.bucket('mpabort');
      const uploadId = await start(b, 'k');
      await upload(b, 'k', uploadId, 1, pattern(1000));
      await h.backend.abortMultipartUpload(h.ctx, { bucket: b, key: 'k', uploadId });
      await expectS3Error(
        h.backend.listParts(h.ctx, { bucket: b, key: 'k', uploadId, maxParts: 10 }),
        'NoSuchUpload',
      );
      await expectS3Error(upload(b, 'k', uploadId, 2, pattern(10)), 'NoSuchUpload');
      await expectS3Error(complete(b, 'k', uploadId, numbered('"x"')), 'NoSuchUpload');
      await expectS3Error(
        h.backend.abortMultipartUpload(h.ctx, { bucket: b, key: 'k', uploadId }),
        'NoSuchUpload',
      );
      await h.expectNoKey(b, 'k');
      expect((await h.backend.listMultipartUploads(h.ctx, { bucket: b, maxUploads: 1000 })).uploads).toEqual(
        [],
      );
    },
  );

  h.case(
    'multipart.list-paging',
    'ListParts pages by MaxParts/PartNumberMarker; ListMultipartUploads filters by prefix',
    async () => {
      const b = await h.bucket('mplist');
      const uploadId = await start(b, 'logs/a');
      const other = await start(b, 'data/b');
      for (const n of [1, 2, 3, 4, 5]) await upload(b, 'logs/a', uploadId, n, pattern(10, n));
      const first = await h.backend.listParts(h.ctx, { bucket: b, key: 'logs/a', uploadId, maxParts: 2 });
      expect(first.parts.map((p) => p.partNumber)).toEqual([1, 2]);
      expect(first.isTruncated).toBe(true);
      expect(first.nextPartNumberMarker).toBe(2);
      const rest = await h.backend.listParts(h.ctx, {
        bucket: b,
        key: 'logs/a',
        uploadId,
        maxParts: 10,
        partNumberMarker: 2,
      });
      expect(rest.parts.map((p) => p.partNumber)).toEqual([3, 4, 5]);
      expect(rest.isTruncated).toBe(false);
      const logs = await h.backend.listMultipartUploads(h.ctx, {
        bucket: b,
        prefix: 'logs/',
        maxUploads: 1000,
      });
      expect(logs.uploads.map((u) => u.uploadId)).toEqual([uploadId]);
      const all = await h.backend.listMultipartUploads(h.ctx, { bucket: b, maxUploads: 1000 });
      expect(all.uploads.map((u) => u.key)).toEqual(['data/b', 'logs/a']);
      await h.backend.abortMultipartUpload(h.ctx, { bucket: b, key: 'data/b', uploadId: other });
    },
  );

  h.case(
    'multipart.unknown-upload',
    'UploadPart to an unknown upload id answers NoSuchUpload (404)',
    async () => {
      const b = await h.bucket('mpunknown');
      await expectS3Error(upload(b, 'k', 'no-such-upload-id', 1, pattern(10)), 'NoSuchUpload');
    },
  );

  h.case(
    'multipart.entity-too-small',
    'A part other than the last under 5 MiB fails Complete with EntityTooSmall',
    async () => {
      const b = await h.bucket('mpsmall');
      const uploadId = await start(b, 'k');
      const p1 = await upload(b, 'k', uploadId, 1, pattern(1024, 51));
      const p2 = await upload(b, 'k', uploadId, 2, pattern(1024, 52));
      await expectS3Error(complete(b, 'k', uploadId, numbered(p1.etag, p2.etag)), 'EntityTooSmall');
      await h.expectNoKey(b, 'k');
    },
  );

  h.case(
    'multipart.invalid-part',
    'Complete naming a wrong ETag or a part never uploaded answers InvalidPart',
    async () => {
      const b = await h.bucket('mpinv');
      const uploadId = await start(b, 'k');
      const p1 = await upload(b, 'k', uploadId, 1, pattern(100, 61));
      await expectS3Error(
        complete(b, 'k', uploadId, numbered('"0123456789abcdef0123456789abcdef"')),
        'InvalidPart',
      );
      await expectS3Error(complete(b, 'k', uploadId, numbered(p1.etag, p1.etag)), 'InvalidPart');
      // A single part (also the last) may be small: the upload still completes afterwards.
      await complete(b, 'k', uploadId, numbered(p1.etag));
      expect((await h.read(b, 'k')).data.equals(pattern(100, 61))).toBe(true);
    },
  );

  h.case(
    'multipart.invalid-part-order',
    'Complete with parts out of ascending order answers InvalidPartOrder',
    async () => {
      const b = await h.bucket('mporder');
      const uploadId = await start(b, 'k');
      const p1 = await upload(b, 'k', uploadId, 1, pattern(5 * MiB, 71));
      const p2 = await upload(b, 'k', uploadId, 2, pattern(100, 72));
      await expectS3Error(
        complete(b, 'k', uploadId, [
          { partNumber: 2, etag: p2.etag },
          { partNumber: 1, etag: p1.etag },
        ]),
        'InvalidPartOrder',
      );
    },
    TIMEOUT,
  );

  h.case(
    'multipart.upload-part-copy',
    'UploadPartCopy with x-amz-copy-source-range copies exactly that byte range as a part',
    async () => {
      const b = await h.bucket('mpcopy');
      const source = pattern(6 * MiB + 500, 81);
      await h.put(b, 'src', source);
      const uploadId = await start(b, 'dst');
      const split = 5 * MiB;
      const c1 = await h.backend.uploadPartCopy(h.ctx, {
        bucket: b,
        key: 'dst',
        uploadId,
        partNumber: 1,
        source: { bucket: b, key: 'src' },
        sourceRange: { start: 0, end: split - 1 },
      });
      const c2 = await h.backend.uploadPartCopy(h.ctx, {
        bucket: b,
        key: 'dst',
        uploadId,
        partNumber: 2,
        source: { bucket: b, key: 'src' },
        sourceRange: { start: split, end: source.length - 1 },
      });
      expect(c1.etag).toBe(`"${md5(source.subarray(0, split)).toString('hex')}"`);
      expect(c2.etag).toBe(`"${md5(source.subarray(split)).toString('hex')}"`);
      await complete(b, 'dst', uploadId, numbered(c1.etag, c2.etag));
      expect((await h.read(b, 'dst')).data.equals(source)).toBe(true);
    },
    TIMEOUT,
  );

  h.case(
    'multipart.get-part-number',
    'GetObject/HeadObject with partNumber return that part and its byte range',
    async () => {
      const b = await h.bucket('mppart');
      const uploadId = await start(b, 'k');
      const data = threeParts();
      const parts: CompletedPart[] = [];
      for (const [i, d] of data.entries())
        parts.push({ partNumber: i + 1, etag: (await upload(b, 'k', uploadId, i + 1, d)).etag });
      await complete(b, 'k', uploadId, parts);
      const total = data.reduce((n, d) => n + d.length, 0);
      let offset = 0;
      for (const [i, d] of data.entries()) {
        const got = await h.read(b, 'k', { partNumber: i + 1 });
        expect(got.data.equals(d)).toBe(true);
        expect(got.range).toEqual({ start: offset, end: offset + d.length - 1, size: total });
        expect(got.partsCount).toBe(3);
        offset += d.length;
      }
      const head = await h.backend.headObject(h.ctx, { bucket: b, key: 'k', partNumber: 2 });
      expect(head.range).toEqual({
        start: data[0]?.length,
        end: (data[0]?.length ?? 0) + (data[1]?.length ?? 0) - 1,
        size: total,
      });
    },
    TIMEOUT,
  );

  h.case(
    'multipart.part-number-out-of-range',
    'GetObject with a partNumber beyond the parts answers InvalidPartNumber (416)',
    async () => {
      const b = await h.bucket('mppartbad');
      const uploadId = await start(b, 'k');
      const p1 = await upload(b, 'k', uploadId, 1, pattern(100));
      await complete(b, 'k', uploadId, numbered(p1.etag));
      await expectS3Error(
        h.backend.getObject(h.ctx, { bucket: b, key: 'k', partNumber: 2 }),
        'InvalidPartNumber',
      );
    },
  );
}
