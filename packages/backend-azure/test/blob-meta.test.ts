import { describe, expect, it } from 'vitest';
import { META, objectMetadata, readStored } from '../src/blob-meta.js';

describe('blob metadata codec', () => {
  it('round-trips what an S3 object keeps, with only identifier names and ASCII values', () => {
    const stored = {
      etag: '"0123456789abcdef0123456789abcdef-3"',
      metadata: { 'multi-word': 'a b c', ünï: 'cödé' },
      checksums: { CRC64NVME: 'AAAAAAAAAAA=' },
      checksumType: 'FULL_OBJECT' as const,
      partsCount: 3,
      headers: { expires: 'Wed, 21 Oct 2037 07:28:00 GMT', websiteRedirectLocation: '/x' },
    };
    const meta = objectMetadata(stored, 'u.sig');
    for (const [k, v] of Object.entries(meta)) {
      expect(k).toMatch(/^[a-z][a-z0-9]*$/);
      expect(v).toMatch(/^[\x20-\x7e]*$/);
    }
    expect(meta[META.upload]).toBe('u.sig');
    expect(readStored({ metadata: meta })).toEqual(stored);
  });

  it("stands Azure's ETag in, quoted, for a blob written by another tool", () => {
    expect(readStored({ metadata: {}, etag: '"0x8DC1"' }).etag).toBe('"0x8DC1"');
  });
});
