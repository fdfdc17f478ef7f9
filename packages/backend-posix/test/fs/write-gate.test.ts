// The write gate: writes into one path never run more than the limit at once and run in the order
// they came; a failed write gives its turn to the next; a limit of 0 lets everything through;
// another path has a gate of its own; VGWRDMA_FILE_WRITERS is read as a count.
import { describe, expect, it } from 'vitest';
import type { PositionalFile } from '../../src/fs/fd-file.js';
import { DEFAULT_FILE_WRITERS, fileWriters, gated } from '../../src/fs/write-gate.js';

/** A file whose writes finish only when the test says, recording what runs at once. */
function heldFile() {
  const started: number[] = [];
  const finish: (() => void)[] = [];
  const fail: ((err: Error) => void)[] = [];
  let running = 0;
  let most = 0;
  const file: PositionalFile = {
    fd: -1,
    writev: (buffers, position) => {
      started.push(position);
      most = Math.max(most, ++running);
      return new Promise((resolve, reject) => {
        const done = () => running--;
        finish.push(() => {
          done();
          resolve({ bytesWritten: buffers.reduce((n, b) => n + b.length, 0) });
        });
        fail.push((err) => {
          done();
          reject(err);
        });
      });
    },
  };
  return { file, started, finish, fail, most: () => most };
}

const tick = () => new Promise((r) => setImmediate(r));
const one = [Buffer.alloc(4)];

describe('write gate', () => {
  it('lets one write at a time into a path, in arrival order', async () => {
    const h = heldFile();
    const a = gated('/x/assembly', h.file, 1);
    const b = gated('/x/assembly', h.file, 1);
    const writes = [a.writev(one, 0), b.writev(one, 8), a.writev(one, 16)];
    await tick();
    expect(h.started).toEqual([0]);
    h.finish[0]!();
    await tick();
    expect(h.started).toEqual([0, 8]);
    h.finish[1]!();
    await tick();
    h.finish[2]!();
    await Promise.all(writes);
    expect(h.started).toEqual([0, 8, 16]);
    expect(h.most()).toBe(1);
    a.release();
    b.release();
  });

  it('hands a failed write’s turn to the next', async () => {
    const h = heldFile();
    const g = gated('/y/assembly', h.file, 1);
    const first = g.writev(one, 0);
    const second = g.writev(one, 8);
    await tick();
    h.fail[0]!(new Error('EIO'));
    await expect(first).rejects.toThrow('EIO');
    await tick();
    expect(h.started).toEqual([0, 8]);
    h.finish[1]!();
    await expect(second).resolves.toEqual({ bytesWritten: 4 });
    g.release();
  });

  it('lets up to the limit through, and other paths separately', async () => {
    const h = heldFile();
    const two = gated('/z/assembly', h.file, 2);
    const other = gated('/w/assembly', h.file, 2);
    const writes = [two.writev(one, 0), two.writev(one, 8), two.writev(one, 16), other.writev(one, 0)];
    await tick();
    expect(h.started).toEqual([0, 8, 0]);
    for (let i = 0; i < 4; i++) {
      h.finish[i]?.();
      await tick();
    }
    await Promise.all(writes);
    expect(h.started).toEqual([0, 8, 0, 16]);
    expect(h.most()).toBe(3);
    two.release();
    other.release();
  });

  it('a released path starts a fresh gate with the limit it is asked for', async () => {
    const h = heldFile();
    const first = gated('/v/assembly', h.file, 1);
    first.release();
    first.release(); // idempotent: must not drop a later holder's count
    const again = gated('/v/assembly', h.file, 3);
    const writes = [again.writev(one, 0), again.writev(one, 8)];
    await tick();
    expect(h.started).toEqual([0, 8]);
    for (const f of h.finish) f();
    await Promise.all(writes);
    again.release();
  });

  it('a limit of 0 writes straight through', async () => {
    const h = heldFile();
    const g = gated('/u/assembly', h.file, 0);
    const writes = [g.writev(one, 0), g.writev(one, 8), g.writev(one, 16)];
    await tick();
    expect(h.started).toEqual([0, 8, 16]);
    for (const f of h.finish) f();
    await Promise.all(writes);
    g.release();
  });

  it('reads VGWRDMA_FILE_WRITERS', () => {
    expect(fileWriters({})).toBe(DEFAULT_FILE_WRITERS);
    expect(fileWriters({ VGWRDMA_FILE_WRITERS: '0' })).toBe(0);
    expect(fileWriters({ VGWRDMA_FILE_WRITERS: '4' })).toBe(4);
    expect(fileWriters({ VGWRDMA_FILE_WRITERS: 'many' })).toBe(DEFAULT_FILE_WRITERS);
    expect(fileWriters({ VGWRDMA_FILE_WRITERS: '-1' })).toBe(DEFAULT_FILE_WRITERS);
  });
});
