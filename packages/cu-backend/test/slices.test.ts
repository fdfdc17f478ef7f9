// The slice discipline of the two zero-copy paths, on a fake session (no transport): GET by
// positional reads never reads into a slice whose WRITE is outstanding and settles every read
// before it returns, even on failure; PUT by lent chunks never READs into a slice the backend
// has not released.

import { BORROW_CHUNKS, type LendingBody, type LentChunk, READ_AT } from '@vgwrdma/backend-contract';
import type { BufferSlice } from '@vgwrdma/bufferpool';
import { describe, expect, it } from 'vitest';
import { rdmaDownloadAt } from '../src/rdma-download-at.js';
import type { RdmaSession } from '../src/rdma-session.js';
import { RdmaUpload } from '../src/rdma-upload.js';

const CHUNK = 16;

/** A session over plain memory: 'write' copies a slice out to `remote`, 'read' copies in. */
function fakeSession(
  slots: number,
  remote: Uint8Array,
  guard: (dir: string, slot: number) => void = () => {},
) {
  const mem = new Uint8Array(slots * CHUNK);
  const slices = Array.from(
    { length: slots },
    (_, i) =>
      ({ offset: i * CHUNK, length: CHUNK, bytes: mem.subarray(i * CHUNK, (i + 1) * CHUNK) }) as BufferSlice,
  );
  const busy = new Set<number>(); // slots with a transfer on the wire
  const log: string[] = [];
  let inFlight = 0;
  const session = {
    slices,
    chunkSize: CHUNK,
    moved: 0,
    transfer(dir: 'read' | 'write', slot: number, size: number, off: number): Promise<number> {
      if (inFlight > 0) throw new Error('two transfers at once on one channel');
      guard(dir, slot);
      inFlight++;
      busy.add(slot);
      log.push(`${dir} ${slot} @${off}`);
      return new Promise((resolve) =>
        setTimeout(() => {
          const s = slices[slot] as BufferSlice;
          if (dir === 'write') remote.set(s.bytes.subarray(0, size), off);
          else s.bytes.set(remote.subarray(off, off + size));
          busy.delete(slot);
          inFlight--;
          session.moved += size;
          resolve(size);
        }, 2),
      );
    },
    settle: async () => {},
  };
  return { session: session as unknown as RdmaSession, busy, log };
}

describe('rdmaDownloadAt', () => {
  it('moves every byte and never reads into a slice whose WRITE is on the wire', async () => {
    const data = Uint8Array.from({ length: 7 * CHUNK + 5 }, (_, i) => i & 0xff);
    const client = new Uint8Array(data.length);
    const { session, busy } = fakeSession(4, client);
    const body = {
      [READ_AT]: async (target: Uint8Array, position: number) => {
        const slot = session.slices.findIndex(
          (s) => s.bytes.buffer === target.buffer && s.bytes.byteOffset === target.byteOffset,
        );
        expect(busy.has(slot)).toBe(false);
        await new Promise((r) => setTimeout(r, 1));
        const n = Math.min(target.length, data.length - position);
        target.set(data.subarray(position, position + n));
        return n;
      },
    };
    const moved = await rdmaDownloadAt(session, body, data.length, new AbortController().signal);
    expect(moved).toBe(data.length);
    expect(client).toEqual(data);
  });

  it('a failed read settles the other reads before it rejects', async () => {
    const { session } = fakeSession(4, new Uint8Array(8 * CHUNK));
    let running = 0;
    const body = {
      [READ_AT]: async (_t: Uint8Array, position: number) => {
        running++;
        await new Promise((r) => setTimeout(r, position === CHUNK ? 1 : 20));
        running--;
        if (position === CHUNK) throw new Error('disk error');
        return CHUNK;
      },
    };
    await expect(rdmaDownloadAt(session, body, 8 * CHUNK, new AbortController().signal)).rejects.toThrow(
      'disk error',
    );
    expect(running).toBe(0);
  });
});

describe('RdmaUpload lent chunks', () => {
  it('yields the payload as views and READs into a slice only after its chunk was released', async () => {
    const data = Uint8Array.from({ length: 9 * CHUNK + 3 }, (_, i) => (i * 7) & 0xff);
    const heldSlots = new Set<number>();
    const { session, log } = fakeSession(3, data, (dir, slot) => {
      if (dir === 'read') expect(heldSlots.has(slot)).toBe(false);
    });
    const slotOf = (c: LentChunk) =>
      session.slices.findIndex((s) => s.bytes.byteOffset === c.bytes.byteOffset);
    const upload = new RdmaUpload(session, data.length);
    await upload.prime();
    const body = upload.body() as unknown as LendingBody;
    const held: LentChunk[] = [];
    const got: number[] = [];
    for await (const c of body[BORROW_CHUNKS]()) {
      got.push(...c.bytes);
      held.push(c);
      heldSlots.add(slotOf(c));
      // hold two chunks at a time: the READ ahead must wait for a release
      if (held.length === 2) {
        const done = held.shift() as LentChunk;
        heldSlots.delete(slotOf(done));
        done.release();
      }
      await new Promise((r) => setTimeout(r, 5)); // let READs run ahead where they may
    }
    for (const c of held) c.release();
    expect(Uint8Array.from(got)).toEqual(data);
    const reads = log.filter((l) => l.startsWith('read'));
    expect(reads).toHaveLength(10);
    expect(reads.map((r) => Number(r.split(' ')[1]))).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
  });
});
