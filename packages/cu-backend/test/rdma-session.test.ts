// RdmaSession.settle() returns only when nothing is in flight on any lane — also when a transfer
// is issued while it waits (a READ completion starts the next READ): freeing a channel with a
// transfer on it fails (EBUSY), which once turned a 507 into a 500 under load.
import type { BufferLease } from '@vgwrdma/bufferpool';
import type { RdmaChannel, RdmaServer } from '@vgwrdma/rdma-ffi';
import type { RdmaToken } from '@vgwrdma/rdma-protocol';
import { describe, expect, it } from 'vitest';
import { RdmaSession } from '../src/rdma-session.js';

function gate() {
  let open!: (n: number) => void;
  const promise = new Promise<number>((r) => {
    open = r;
  });
  return { promise, open };
}

function session(transfers: Promise<number>[]) {
  let next = 0;
  const server = {
    handlePut: () => transfers[next++] as Promise<number>,
    handleGet: () => transfers[next++] as Promise<number>,
  } as unknown as RdmaServer;
  const slice = { buffer: {}, offset: 0, length: 4, bytes: new Uint8Array(4) };
  const lease = { slices: () => [slice, slice] } as unknown as BufferLease;
  return new RdmaSession(server, lease, {} as RdmaChannel, {} as RdmaToken, 4);
}

describe('RdmaSession.settle', () => {
  it('waits for a transfer issued while it waits', async () => {
    const first = gate();
    const second = gate();
    const s = session([first.promise, second.promise]);
    let settled = false;
    s.transfer('read', 0, 4, 0).then(() => s.transfer('read', 1, 4, 4)); // like RdmaUpload.pump
    const done = s.settle().then(() => {
      settled = true;
    });
    first.open(4);
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false); // the second READ is on the wire
    second.open(4);
    await done;
    expect(settled).toBe(true);
    expect(s.moved).toBe(8);
  });

  it('resolves at once with nothing in flight, and after a failed transfer', async () => {
    const failed = Promise.reject(new Error('link down'));
    const s = session([failed]);
    await s.settle();
    await expect(s.transfer('write', 0, 4, 0)).rejects.toThrow('link down');
    await s.settle();
  });
});
