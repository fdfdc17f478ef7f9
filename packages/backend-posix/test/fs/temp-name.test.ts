// tempName: `<owner>.<24 hex>` names, all distinct across more than one block of random bytes,
// and parseable back to this process as their owner (what the stale-temp cleanup relies on).
import { describe, expect, it } from 'vitest';
import { ownerId } from '../../src/fs/owner.js';
import { tempName } from '../../src/fs/temp-name.js';

describe('tempName', () => {
  it('gives distinct names owned by this process', () => {
    const names = Array.from({ length: 1000 }, () => tempName());
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) expect(n).toMatch(new RegExp(`^${ownerId()}\\.[0-9a-f]{24}$`));
  });
});
