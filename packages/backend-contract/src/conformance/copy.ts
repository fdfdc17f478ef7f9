// Conformance cases: CopyObject with the COPY and REPLACE metadata directives.
import { expect } from 'vitest';
import { expectS3Error, type Harness, pattern } from './harness.js';

export function copyCases(h: Harness): void {
  const source = async (tag: string) => {
    const b = await h.bucket(tag);
    const data = pattern(12_345, 3);
    const put = await h.put(b, 'src', data, {
      metadata: { origin: 'source' },
      contentType: 'text/x-source',
      tagging: { t: 'source' },
    });
    return { b, data, etag: put.etag };
  };

  h.case(
    'copy.copy-directive',
    'CopyObject (COPY) duplicates bytes, ETag, metadata and content type',
    async () => {
      const { b, data, etag } = await source('copy');
      const out = await h.backend.copyObject(h.ctx, {
        bucket: b,
        key: 'dst',
        source: { bucket: b, key: 'src' },
      });
      expect(out.etag).toBe(etag);
      expect(out.lastModified).toBeInstanceOf(Date);
      const got = await h.read(b, 'dst');
      expect(got.data.equals(data)).toBe(true);
      expect(got.metadata).toEqual({ origin: 'source' });
      expect(got.contentType).toBe('text/x-source');
    },
  );

  h.case(
    'copy.replace-directive',
    'CopyObject (REPLACE) keeps the bytes and takes metadata and content type from the request',
    async () => {
      const { b, data } = await source('replace');
      await h.backend.copyObject(h.ctx, {
        bucket: b,
        key: 'dst',
        source: { bucket: b, key: 'src' },
        metadataDirective: 'REPLACE',
        metadata: { origin: 'request' },
        contentType: 'text/x-replaced',
      });
      const got = await h.read(b, 'dst');
      expect(got.data.equals(data)).toBe(true);
      expect(got.metadata).toEqual({ origin: 'request' });
      expect(got.contentType).toBe('text/x-replaced');
      const src = await h.backend.headObject(h.ctx, { bucket: b, key: 'src' });
      expect(src.metadata).toEqual({ origin: 'source' });
    },
  );

  h.case('copy.cross-bucket', 'CopyObject copies between buckets', async () => {
    const { b, data } = await source('xsrc');
    const dst = await h.bucket('xdst');
    await h.backend.copyObject(h.ctx, { bucket: dst, key: 'k', source: { bucket: b, key: 'src' } });
    expect((await h.read(dst, 'k')).data.equals(data)).toBe(true);
  });

  h.case(
    'copy.missing-source',
    'CopyObject from a missing key answers NoSuchKey (404) and creates nothing',
    async () => {
      const b = await h.bucket('cmiss');
      await expectS3Error(
        h.backend.copyObject(h.ctx, { bucket: b, key: 'dst', source: { bucket: b, key: 'nope' } }),
        'NoSuchKey',
      );
      await h.expectNoKey(b, 'dst');
    },
  );

  h.case(
    'copy.source-conditions',
    'x-amz-copy-source-if-match with another ETag answers PreconditionFailed (412)',
    async () => {
      const { b, etag } = await source('ccond');
      await expectS3Error(
        h.backend.copyObject(h.ctx, {
          bucket: b,
          key: 'dst',
          source: { bucket: b, key: 'src', conditions: { ifMatch: '"nope"' } },
        }),
        'PreconditionFailed',
      );
      await h.backend.copyObject(h.ctx, {
        bucket: b,
        key: 'dst',
        source: { bucket: b, key: 'src', conditions: { ifMatch: etag } },
      });
    },
  );

  h.case(
    'copy.self-replace',
    'Copying an object onto itself works with REPLACE (metadata update in place)',
    async () => {
      const { b, data } = await source('cself');
      await h.backend.copyObject(h.ctx, {
        bucket: b,
        key: 'src',
        source: { bucket: b, key: 'src' },
        metadataDirective: 'REPLACE',
        metadata: { origin: 'updated' },
      });
      const got = await h.read(b, 'src');
      expect(got.data.equals(data)).toBe(true);
      expect(got.metadata).toEqual({ origin: 'updated' });
    },
  );
}
