// Conformance cases: single objects — PutObject/GetObject/HeadObject/DeleteObject(s), metadata,
// content headers, MD5 ETags, failed uploads leaving nothing behind, tagging, folder objects.
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { expectS3Error, failingBody, type Harness, pattern } from './harness.js';

const md5hex = (b: Buffer | string) => createHash('md5').update(b).digest('hex');
const md5b64 = (b: Buffer | string) => createHash('md5').update(b).digest('base64');

export function objectCases(h: Harness): void {
  /** A PutObject whose body stream fails after 4 KiB of the 8 KiB it announced: it must reject. */
  const putFailing = (b: string, key: string) =>
    expect(
      h.backend.putObject(h.ctx, { bucket: b, key, body: failingBody(pattern(4096)), contentLength: 8192 }),
    ).rejects.toBeDefined();

  h.case(
    'objects.roundtrip',
    'PutObject then GetObject returns the same bytes, size and a quoted MD5 ETag',
    async () => {
      const b = await h.bucket('rt');
      const data = pattern(70_001);
      const put = await h.put(b, 'dir/obj.bin', data);
      expect(put.etag).toBe(`"${md5hex(data)}"`);
      expect(put.size).toBe(data.length);
      const got = await h.read(b, 'dir/obj.bin');
      expect(got.data.equals(data)).toBe(true);
      expect(got.etag).toBe(put.etag);
      expect(got.size).toBe(data.length);
      expect(got.lastModified).toBeInstanceOf(Date);
      expect(got.range).toBeUndefined();
    },
  );

  h.case('objects.empty', 'An empty object has size 0 and the ETag of no bytes', async () => {
    const b = await h.bucket('empty');
    const put = await h.put(b, 'empty', Buffer.alloc(0));
    expect(put.etag).toBe('"d41d8cd98f00b204e9800998ecf8427e"');
    const got = await h.read(b, 'empty');
    expect(got.data.length).toBe(0);
    expect(got.size).toBe(0);
  });

  h.case(
    'objects.metadata-headers',
    'User metadata and content headers are stored and returned by HEAD and GET',
    async () => {
      const b = await h.bucket('meta');
      const attrs = {
        metadata: { color: 'blue', 'multi-word': 'a b c' },
        contentType: 'application/x-conformance',
        contentEncoding: 'identity',
        contentLanguage: 'en-GB',
        contentDisposition: 'attachment; filename="x.bin"',
        cacheControl: 'max-age=60',
        expires: 'Wed, 21 Oct 2037 07:28:00 GMT',
      };
      await h.put(b, 'm', 'hello', attrs);
      const head = await h.backend.headObject(h.ctx, { bucket: b, key: 'm' });
      const got = await h.read(b, 'm');
      for (const info of [head, got]) {
        expect(info.metadata).toEqual(attrs.metadata);
        expect(info.contentType).toBe(attrs.contentType);
        expect(info.contentEncoding).toBe(attrs.contentEncoding);
        expect(info.contentLanguage).toBe(attrs.contentLanguage);
        expect(info.contentDisposition).toBe(attrs.contentDisposition);
        expect(info.cacheControl).toBe(attrs.cacheControl);
        expect(info.expires).toBe(attrs.expires);
        expect(info.size).toBe(5);
      }
    },
  );

  h.case(
    'objects.overwrite',
    'A second PutObject replaces data, ETag and metadata (last writer wins)',
    async () => {
      const b = await h.bucket('ow');
      await h.put(b, 'k', 'first', { metadata: { a: '1' } });
      const second = await h.put(b, 'k', 'second!', { metadata: { b: '2' } });
      const got = await h.read(b, 'k');
      expect(got.data.toString()).toBe('second!');
      expect(got.etag).toBe(second.etag);
      expect(got.metadata).toEqual({ b: '2' });
    },
  );

  h.case('objects.missing', 'GetObject and HeadObject on a missing key answer NoSuchKey (404)', async () => {
    const b = await h.bucket('miss');
    await expectS3Error(h.backend.getObject(h.ctx, { bucket: b, key: 'nope' }), 'NoSuchKey');
    await h.expectNoKey(b, 'nope');
  });

  h.case(
    'objects.delete',
    'DeleteObject removes the object; deleting a missing key succeeds (idempotent)',
    async () => {
      const b = await h.bucket('del');
      await h.put(b, 'a/b/c', 'x');
      await h.backend.deleteObject(h.ctx, { bucket: b, key: 'a/b/c' });
      await h.expectNoKey(b, 'a/b/c');
      await h.backend.deleteObject(h.ctx, { bucket: b, key: 'a/b/c' });
      await h.backend.deleteObject(h.ctx, { bucket: b, key: 'never-existed' });
      // Deleting the last object leaves the bucket deletable (no leftover parent "directories").
      await h.backend.deleteBucket(h.ctx, b);
    },
  );

  h.case(
    'objects.delete-objects',
    'DeleteObjects deletes listed keys and reports a missing key as deleted, not as an error',
    async () => {
      const b = await h.bucket('dels');
      await h.put(b, 'one', '1');
      await h.put(b, 'two', '2');
      const out = await h.backend.deleteObjects(h.ctx, {
        bucket: b,
        objects: [{ key: 'one' }, { key: 'missing' }, { key: 'two' }],
      });
      expect(out.errors).toEqual([]);
      expect(out.deleted.map((d) => d.key).sort()).toEqual(['missing', 'one', 'two']);
      await h.expectNoKey(b, 'one');
      await h.expectNoKey(b, 'two');
    },
  );

  h.case(
    'objects.content-md5',
    'PutObject verifies Content-MD5: a match stores, a mismatch answers BadDigest and stores nothing',
    async () => {
      const b = await h.bucket('md5');
      await h.put(b, 'good', 'payload', { contentMD5: md5b64('payload') });
      expect((await h.read(b, 'good')).data.toString()).toBe('payload');
      await expectS3Error(h.put(b, 'bad', 'payload', { contentMD5: md5b64('other') }), 'BadDigest');
      await h.expectNoKey(b, 'bad');
    },
  );

  h.case(
    'objects.short-body',
    'A body shorter than its Content-Length answers IncompleteBody and stores nothing',
    async () => {
      const b = await h.bucket('short');
      await expectS3Error(h.put(b, 'k', 'abc', { contentLength: 10 }), 'IncompleteBody');
      await h.expectNoKey(b, 'k');
    },
  );

  h.case(
    'objects.body-error',
    'A body stream that fails midway rejects PutObject and no object becomes visible',
    async () => {
      const b = await h.bucket('fail');
      await putFailing(b, 'k');
      await h.expectNoKey(b, 'k');
    },
  );

  h.case(
    'objects.body-error-keeps-old',
    'A failed overwrite leaves the previous object intact (atomic publish)',
    async () => {
      const b = await h.bucket('failow');
      await h.put(b, 'k', 'original');
      await putFailing(b, 'k');
      expect((await h.read(b, 'k')).data.toString()).toBe('original');
    },
  );

  h.case(
    'objects.tagging',
    'Object tags: set on PutObject, read, replaced, deleted; NoSuchKey for a missing key',
    async () => {
      const b = await h.bucket('tags');
      await h.put(b, 'k', 'x', { tagging: { project: 'rdma', tier: 'hot' } });
      expect(await h.backend.getObjectTagging(h.ctx, { bucket: b, key: 'k' })).toEqual({
        project: 'rdma',
        tier: 'hot',
      });
      await h.backend.putObjectTagging(h.ctx, { bucket: b, key: 'k' }, { only: 'one' });
      expect(await h.backend.getObjectTagging(h.ctx, { bucket: b, key: 'k' })).toEqual({ only: 'one' });
      await h.backend.deleteObjectTagging(h.ctx, { bucket: b, key: 'k' });
      expect(await h.backend.getObjectTagging(h.ctx, { bucket: b, key: 'k' })).toEqual({});
      await expectS3Error(h.backend.getObjectTagging(h.ctx, { bucket: b, key: 'nope' }), 'NoSuchKey');
      await expectS3Error(
        h.backend.putObjectTagging(h.ctx, { bucket: b, key: 'nope' }, { a: 'b' }),
        'NoSuchKey',
      );
    },
  );

  h.case(
    'objects.folder',
    'A folder object ("dir/", empty) coexists with keys under it and is listed as a key',
    async () => {
      const b = await h.bucket('folder');
      const put = await h.put(b, 'dir/', Buffer.alloc(0));
      expect(put.etag).toBe('"d41d8cd98f00b204e9800998ecf8427e"');
      await h.put(b, 'dir/file', 'inside');
      const head = await h.backend.headObject(h.ctx, { bucket: b, key: 'dir/' });
      expect(head.size).toBe(0);
      const flat = await h.backend.listObjectsV2(h.ctx, { bucket: b, maxKeys: 1000 });
      expect(flat.contents.map((o) => o.key)).toEqual(['dir/', 'dir/file']);
      const top = await h.backend.listObjectsV2(h.ctx, { bucket: b, delimiter: '/', maxKeys: 1000 });
      expect(top.contents).toEqual([]);
      expect(top.commonPrefixes).toEqual(['dir/']);
      await h.backend.deleteObject(h.ctx, { bucket: b, key: 'dir/file' });
      expect((await h.backend.headObject(h.ctx, { bucket: b, key: 'dir/' })).size).toBe(0);
    },
  );

  h.case(
    'objects.no-implicit-folder',
    'A key under a prefix does not make the prefix itself an object',
    async () => {
      const b = await h.bucket('implicit');
      await h.put(b, 'p/q/r', 'x');
      await h.expectNoKey(b, 'p/q/');
      await h.expectNoKey(b, 'p/q');
    },
  );
}
