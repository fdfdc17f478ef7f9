// The benchmark's client process: a HostClient (softnic agent) owning two regions of the
// benchmark size — P, filled once with random bytes and read by PUTs, and G, written by GETs.
// Driven over IPC by run.mjs; every reply carries what the server needs to verify the bytes.

import { createHash, randomFillSync } from 'node:crypto';
import { HostClient } from '../../packages/rdma-ffi/dist/index.js';

const size = Number(process.argv[2]);
const client = new HostClient({ allowDirect: true });
const put = client.allocate(size);
const get = client.allocate(size);
// random bytes in 64 MiB slices (randomFillSync caps one call at 2^31 - 1 bytes)
for (let off = 0; off < size; off += 64 << 20) randomFillSync(put.bytes, off, Math.min(64 << 20, size - off));

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const commands = {
  /** Tokens for both regions (the server mints nothing: the client owns its memory). */
  tokens: () => ({
    put: put.token(0, size, 'put'),
    get: get.token(0, size, 'get'),
    putDigest: sha256(put.bytes),
  }),
  /** Zeroes G so a GET that wrote nothing cannot pass verification by leftovers. */
  clearGet: () => {
    get.bytes.fill(0);
    return true;
  },
  getDigest: () => sha256(get.bytes),
  rss: () => process.memoryUsage().rss,
  exit: () => {
    client.close();
    setImmediate(() => process.exit(0));
    return true;
  },
};

process.on('message', ({ id, cmd }) => {
  try {
    process.send({ id, ok: true, value: commands[cmd]() });
  } catch (e) {
    process.send({ id, ok: false, error: `${e.name}: ${e.message}` });
  }
});
process.send({ ready: true });
