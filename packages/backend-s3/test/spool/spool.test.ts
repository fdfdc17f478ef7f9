// The spool: memory up to its bound, then an unlinked temp file (nothing left in the directory),
// read back whole and in order as often as asked; disposal closes the file.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Spool } from '../../src/spool/spool.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'spool-test-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('Spool', () => {
  it('keeps a body within its memory bound in memory', async () => {
    const spool = new Spool({ memoryBytes: 1024, dir });
    await spool.write(Buffer.from('hello '));
    await spool.write(Buffer.from('world'));
    expect(spool.spilled).toBe(false);
    expect(spool.size).toBe(11);
    expect((await buffer(spool.body())).toString()).toBe('hello world');
    await spool.dispose();
  });

  it('spills past the bound to a file that is already unlinked, and reads back in order', async () => {
    const spool = new Spool({ memoryBytes: 4096, dir });
    const chunks = [randomBytes(3000), randomBytes(3000), randomBytes(70_000)];
    for (const c of chunks) await spool.write(c);
    expect(spool.spilled).toBe(true);
    expect(await readdir(dir)).toEqual([]);
    const whole = Buffer.concat(chunks);
    expect(spool.size).toBe(whole.length);
    expect((await buffer(spool.body())).equals(whole)).toBe(true);
    // A second reader starts again from the first byte.
    expect((await buffer(spool.body())).equals(whole)).toBe(true);
    await spool.dispose();
    await expect(spool.write(Buffer.from('x'))).rejects.toThrow(/disposed/);
  });

  it('with no memory at all, everything goes to the file', async () => {
    const spool = new Spool({ memoryBytes: 0, dir });
    await spool.write(Buffer.from('abc'));
    expect(spool.spilled).toBe(true);
    expect((await buffer(spool.body())).toString()).toBe('abc');
    await spool.dispose();
    await spool.dispose(); // twice is fine
  });
});
