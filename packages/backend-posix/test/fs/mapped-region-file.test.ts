// MappedRegionFile: a part written in place goes through the library's mapped region writes, chunk
// by chunk at its positions; the first chunk the mapping refuses (-EFAULT: a page it could not
// back) is written again by pwrite, with every later one, so the bytes still land or pwrite's own
// errno comes out. Against the real native calls too, on a preallocated file.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import { join } from 'node:path';
import { preallocateCall } from '@vgwrdma/native';
import { installNativeKernels, type RegionWriter, regionMapCall } from '@vgwrdma/native/kernels';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FdFile } from '../../src/fs/fd-file.js';
import { MappedRegionFile } from '../../src/fs/mapped-region-file.js';

const chunk = (n: number, seed: number) => Buffer.alloc(n, seed);

describe('MappedRegionFile', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mapped-region-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  /** A fake region write that answers `answers` in turn (then 0) and records its calls. */
  function scripted(answers: number[]) {
    const calls: [number, number][] = [];
    let closed = 0;
    const region: RegionWriter = {
      write: async (at, bytes) => {
        calls.push([at, bytes.length]);
        return answers.shift() ?? 0;
      },
      close: async () => {
        closed++;
      },
    };
    return { calls, region, closed: () => closed };
  }

  it('a refused chunk and the rest go by pwrite; the bytes all land', async () => {
    const file = await FdFile.open(join(dir, 'a'), 'wx+', 0o600);
    const fake = scripted([0, -constants.errno.EFAULT]);
    const m = new MappedRegionFile(file, fake.region);
    // The fake wrote nothing for its accepted chunk: write those bytes first, as the mapping would.
    await file.writev([chunk(4, 1)], 10);
    const r = await m.writev([chunk(4, 1), chunk(4, 2), chunk(4, 3)], 10);
    expect(r.bytesWritten).toBe(12);
    expect(fake.calls).toEqual([
      [10, 4],
      [14, 4],
    ]);
    // Mapping is off for this file now: the next write goes straight to pwrite.
    await m.writev([chunk(2, 4)], 22);
    expect(fake.calls.length).toBe(2);
    await m.close();
    expect(fake.closed()).toBe(1);
    await file.close();
    const back = await readFile(join(dir, 'a'));
    expect([...back.subarray(10, 24)]).toEqual([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4]);
  });

  it('the real calls, on a preallocated file: each chunk at its place', async () => {
    installNativeKernels();
    const map = regionMapCall({});
    expect(map).toBeDefined();
    if (!map) return;
    const file = await FdFile.open(join(dir, 'b'), 'wx+', 0o600);
    const size = 3 << 20;
    if ((await preallocateCall()(file.fd, 0, size)) !== 0) return; // no fallocate: backend uses pwrite
    const region = map(file.fd, 4096, 2 << 20);
    if (typeof region === 'number') throw new Error(`region map failed: ${region}`);
    const m = new MappedRegionFile(file, region);
    const parts = [chunk(1 << 20, 7), chunk(1 << 20, 8)];
    expect((await m.writev(parts, 4096)).bytesWritten).toBe(2 << 20);
    await m.close();
    await file.close();
    const back = await readFile(join(dir, 'b'));
    expect(back.length).toBe(size);
    expect(back.subarray(4096, 4096 + (1 << 20)).every((b) => b === 7)).toBe(true);
    expect(back.subarray(4096 + (1 << 20), 4096 + (2 << 20)).every((b) => b === 8)).toBe(true);
  });

  it('past the end of the file the real call refuses and pwrite grows the file', async () => {
    installNativeKernels();
    const map = regionMapCall({});
    if (!map) return;
    const file = await FdFile.open(join(dir, 'c'), 'wx+', 0o600);
    const region = map(file.fd, 1 << 20, 8192);
    if (typeof region === 'number') throw new Error(`region map failed: ${region}`);
    const m = new MappedRegionFile(file, region);
    expect((await m.writev([chunk(8192, 9)], 1 << 20)).bytesWritten).toBe(8192);
    await m.close();
    await file.close();
    const back = await readFile(join(dir, 'c'));
    expect(back.length).toBe((1 << 20) + 8192);
    expect(back.subarray(1 << 20).every((b) => b === 9)).toBe(true);
  });
});
