import { describe, expect, it } from 'vitest';
import { blockId, newNonce, newUploadId, PUT_UPLOAD, partOfBlock } from '../src/block-ids.js';

describe('block ids', () => {
  it('have one length for every upload, part and index (Blob Storage requires it)', () => {
    const lengths = new Set(
      [
        blockId(PUT_UPLOAD, 0, newNonce(), 0),
        blockId(newUploadId(), 1, newNonce(), 0),
        blockId(newUploadId(), 10_000, newNonce(), 999_999),
      ].map((id) => id.length),
    );
    expect(lengths.size).toBe(1);
  });

  it('carry the part number they were staged for', () => {
    expect(partOfBlock(blockId(newUploadId(), 42, newNonce(), 3))).toBe(42);
    expect(partOfBlock(Buffer.from('foreign').toString('base64'))).toBeNaN();
  });

  it('differ between two stagings of the same part', () => {
    const id = newUploadId();
    expect(blockId(id, 1, newNonce(), 0)).not.toBe(blockId(id, 1, newNonce(), 0));
  });
});
