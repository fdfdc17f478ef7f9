// ChunkedBytes refuses ranges outside its size with a catalogue error (docs/errors.md) and keeps
// what is written inside them.
import { describe, expect, it } from 'vitest';
import { ChunkedBytes } from '../src/chunked-bytes.js';

describe('ChunkedBytes ranges', () => {
  it('reads back a write; a range past the end is VGW_ERR_INVALID_ARGUMENT', () => {
    const b = new ChunkedBytes(16);
    b.write(4, Uint8Array.of(1, 2, 3));
    const out = new Uint8Array(3);
    b.read(4, out);
    expect([...out]).toEqual([1, 2, 3]);
    expect(() => b.read(15, new Uint8Array(2))).toThrow(
      expect.objectContaining({ name: 'InvalidArgumentError', code: 'VGW_ERR_INVALID_ARGUMENT' }),
    );
    expect(() => b.write(-1, Uint8Array.of(0))).toThrow(
      expect.objectContaining({ code: 'VGW_ERR_INVALID_ARGUMENT' }),
    );
  });
});
