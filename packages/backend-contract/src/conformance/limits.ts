// Conformance cases: key and metadata limits. Each can be skipped by id when the gateway, not
// the backend, enforces it (pass e.g. { skip: ['limits.metadata-too-large'] }).
import { expect } from 'vitest';
import { expectS3Error, type Harness } from './harness.js';

/** A key of `bytes` bytes made of 200-byte path components (filesystems cap a name at 255). */
function longKey(bytes: number): string {
  const parts: string[] = [];
  let left = bytes;
  while (left > 0) {
    const n = Math.min(200, left);
    parts.push('k'.repeat(n));
    left -= n + 1;
  }
  const key = parts.join('/');
  return key.length > bytes ? key.slice(0, bytes) : key.padEnd(bytes, 'k');
}

export function limitCases(h: Harness): void {
  h.case('limits.key-1024', 'A key of exactly 1024 bytes is accepted', async () => {
    const b = await h.bucket('key1024');
    const key = longKey(1024);
    expect(Buffer.byteLength(key)).toBe(1024);
    await h.put(b, key, 'x');
    expect((await h.read(b, key)).data.toString()).toBe('x');
  });

  h.case('limits.key-too-long', 'A key over 1024 bytes answers KeyTooLongError (400)', async () => {
    const b = await h.bucket('key1025');
    await expectS3Error(h.put(b, longKey(1025), 'x'), 'KeyTooLongError');
  });

  h.case('limits.metadata-too-large', 'User metadata over 2 KiB answers MetadataTooLarge (400)', async () => {
    const b = await h.bucket('bigmeta');
    await expectS3Error(h.put(b, 'k', 'x', { metadata: { big: 'v'.repeat(2100) } }), 'MetadataTooLarge');
  });

  h.case(
    'limits.unicode-key',
    'Keys with spaces, unicode and percent signs round-trip and list verbatim',
    async () => {
      const b = await h.bucket('unicode');
      const keys = ['with space', 'ünïcødé/日本', 'percent%20sign', 'plus+sign'];
      for (const k of keys) await h.put(b, k, k);
      for (const k of keys) expect((await h.read(b, k)).data.toString()).toBe(k);
      const listed = await h.backend.listObjectsV2(h.ctx, { bucket: b, maxKeys: 1000 });
      expect(listed.contents.map((o) => o.key)).toEqual(
        [...keys].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y))),
      );
    },
  );
}
