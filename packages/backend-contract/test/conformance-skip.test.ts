// The kit's skip option: ids and dotted prefixes select cases; nothing else does.
import { describe, expect, it } from 'vitest';
import { Harness } from '../src/conformance/harness.js';

const never = async () => {
  throw new Error('the factory is not called by these tests');
};

describe('conformance skip option', () => {
  const h = new Harness(never, { skip: ['limits', 'objects.folder', 'multipart.'] });

  it('skips an exact id', () => {
    expect(h.isSkipped('objects.folder')).toBe(true);
    expect(h.isSkipped('objects.folder-extra')).toBe(false);
  });

  it('skips every id under a group prefix, with or without the trailing dot', () => {
    expect(h.isSkipped('limits.key-too-long')).toBe(true);
    expect(h.isSkipped('multipart.abort')).toBe(true);
    expect(h.isSkipped('limitsx.other')).toBe(false);
  });

  it('runs everything else, and everything when no skip is given', () => {
    expect(h.isSkipped('objects.roundtrip')).toBe(false);
    expect(new Harness(never, {}).isSkipped('limits.key-too-long')).toBe(false);
  });
});
