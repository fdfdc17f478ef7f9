// Conformance cases: ranged reads (RFC 9110 byte ranges as S3 answers them) and conditional
// reads and writes (If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since).
import { expect } from 'vitest';
import type { ByteRange } from '../types/common.js';
import { expectS3Error, type Harness, pattern } from './harness.js';

const SIZE = 100;
const RANGES: { title: string; range: ByteRange; start: number; end: number }[] = [
  { title: 'bytes=10-19', range: { kind: 'range', first: 10, last: 19 }, start: 10, end: 19 },
  { title: 'bytes=0-0 (one byte)', range: { kind: 'range', first: 0, last: 0 }, start: 0, end: 0 },
  { title: 'bytes=90- (open-ended)', range: { kind: 'range', first: 90 }, start: 90, end: 99 },
  { title: 'bytes=-10 (suffix)', range: { kind: 'suffix', length: 10 }, start: 90, end: 99 },
  {
    title: 'bytes=-500 (suffix longer than the object: all of it)',
    range: { kind: 'suffix', length: 500 },
    start: 0,
    end: 99,
  },
  {
    title: 'bytes=95-200 (end clamped to the object)',
    range: { kind: 'range', first: 95, last: 200 },
    start: 95,
    end: 99,
  },
];

export function readCases(h: Harness): void {
  for (const r of RANGES) {
    h.case(
      `ranges.${r.title.split(' ')[0]}`,
      `Range ${r.title} returns bytes ${r.start}-${r.end} of ${SIZE}`,
      async () => {
        const b = await h.bucket('range');
        const data = pattern(SIZE, 7);
        await h.put(b, 'k', data);
        const got = await h.read(b, 'k', { range: r.range });
        expect(got.range).toEqual({ start: r.start, end: r.end, size: SIZE });
        expect(got.data.equals(data.subarray(r.start, r.end + 1))).toBe(true);
        const head = await h.backend.headObject(h.ctx, { bucket: b, key: 'k', range: r.range });
        expect(head.range).toEqual({ start: r.start, end: r.end, size: SIZE });
      },
    );
  }

  h.case(
    'ranges.unsatisfiable',
    'A range starting at or past the end answers InvalidRange (416)',
    async () => {
      const b = await h.bucket('badrange');
      await h.put(b, 'k', pattern(SIZE));
      await expectS3Error(
        h.backend.getObject(h.ctx, { bucket: b, key: 'k', range: { kind: 'range', first: SIZE } }),
        'InvalidRange',
      );
      await expectS3Error(
        h.backend.getObject(h.ctx, {
          bucket: b,
          key: 'k',
          range: { kind: 'range', first: 1000, last: 2000 },
        }),
        'InvalidRange',
      );
    },
  );

  h.case('ranges.empty-object', 'Any range of an empty object answers InvalidRange (416)', async () => {
    const b = await h.bucket('emptyrange');
    await h.put(b, 'k', Buffer.alloc(0));
    await expectS3Error(
      h.backend.getObject(h.ctx, { bucket: b, key: 'k', range: { kind: 'suffix', length: 5 } }),
      'InvalidRange',
    );
  });

  const conditional = async (tag: string) => {
    const b = await h.bucket(tag);
    const put = await h.put(b, 'k', 'conditional');
    const head = await h.backend.headObject(h.ctx, { bucket: b, key: 'k' });
    const past = new Date(head.lastModified.getTime() - 3600_000);
    const future = new Date(head.lastModified.getTime() + 3600_000);
    return { b, etag: put.etag, past, future };
  };

  h.case(
    'conditions.if-match',
    'If-Match: a matching ETag (quoted or not, or *) reads; another answers PreconditionFailed (412)',
    async () => {
      const { b, etag } = await conditional('ifm');
      for (const ifMatch of [etag, etag.replace(/"/g, ''), '*', `"nope", ${etag}`]) {
        await h.read(b, 'k', { conditions: { ifMatch } });
      }
      await expectS3Error(
        h.backend.getObject(h.ctx, { bucket: b, key: 'k', conditions: { ifMatch: '"nope"' } }),
        'PreconditionFailed',
      );
      await expectS3Error(
        h.backend.headObject(h.ctx, { bucket: b, key: 'k', conditions: { ifMatch: '"nope"' } }),
        'PreconditionFailed',
      );
    },
  );

  h.case(
    'conditions.if-none-match',
    'If-None-Match: a matching ETag answers NotModified (304) on GET and HEAD',
    async () => {
      const { b, etag } = await conditional('ifnm');
      await expectS3Error(
        h.backend.getObject(h.ctx, { bucket: b, key: 'k', conditions: { ifNoneMatch: etag } }),
        'NotModified',
      );
      await expectS3Error(
        h.backend.headObject(h.ctx, { bucket: b, key: 'k', conditions: { ifNoneMatch: etag } }),
        'NotModified',
      );
      await h.read(b, 'k', { conditions: { ifNoneMatch: '"other"' } });
    },
  );

  h.case(
    'conditions.dates',
    'If-Modified-Since not after the change answers 304; If-Unmodified-Since before it answers 412',
    async () => {
      const { b, past, future } = await conditional('dates');
      await expectS3Error(
        h.backend.getObject(h.ctx, { bucket: b, key: 'k', conditions: { ifModifiedSince: future } }),
        'NotModified',
      );
      await h.read(b, 'k', { conditions: { ifModifiedSince: past } });
      await expectS3Error(
        h.backend.getObject(h.ctx, { bucket: b, key: 'k', conditions: { ifUnmodifiedSince: past } }),
        'PreconditionFailed',
      );
      await h.read(b, 'k', { conditions: { ifUnmodifiedSince: future } });
    },
  );

  h.case(
    'conditions.precedence',
    'If-Match true overrides a failing If-Unmodified-Since; If-None-Match overrides If-Modified-Since (RFC 9110 §13.2.2)',
    async () => {
      const { b, etag, past, future } = await conditional('prec');
      await h.read(b, 'k', { conditions: { ifMatch: etag, ifUnmodifiedSince: past } });
      await h.read(b, 'k', { conditions: { ifNoneMatch: '"other"', ifModifiedSince: future } });
      // Both failing: If-Match is evaluated first, so 412 wins over 304.
      await expectS3Error(
        h.backend.getObject(h.ctx, {
          bucket: b,
          key: 'k',
          conditions: { ifMatch: '"nope"', ifNoneMatch: etag },
        }),
        'PreconditionFailed',
      );
    },
  );

  h.case(
    'conditions.write-if-none-match',
    'PutObject with If-None-Match: * fails with PreconditionFailed when the key exists',
    async () => {
      const { b } = await conditional('wifnm');
      await expectS3Error(h.put(b, 'k', 'again', { ifNoneMatch: '*' }), 'PreconditionFailed');
      expect((await h.read(b, 'k')).data.toString()).toBe('conditional');
      await h.put(b, 'fresh', 'new', { ifNoneMatch: '*' });
    },
  );

  h.case(
    'conditions.write-if-match',
    'PutObject with If-Match writes only over the matching ETag (412 otherwise)',
    async () => {
      const { b, etag } = await conditional('wifm');
      await expectS3Error(h.put(b, 'k', 'again', { ifMatch: '"nope"' }), 'PreconditionFailed');
      await h.put(b, 'k', 'replaced', { ifMatch: etag });
      expect((await h.read(b, 'k')).data.toString()).toBe('replaced');
    },
  );
}
