// Parallelism check of the softnic benchmark: two PUTs of one client region into two server
// buffers, first one after the other, then at the same time (each takes its own channel, so
// its own native worker). The ratio serial/concurrent is ~2 when transfers truly overlap and
// ~1 when something serialises them. Both buffers are verified after each phase.

/**
 * @param {object} o
 * @param {import('../../packages/rdma-ffi/dist/index.js').RdmaServer} o.server
 * @param {import('../../packages/rdma-ffi/dist/index.js').RdmaBuffer[]} o.buffers two buffers of `size`
 * @param {number} o.size
 * @param {import('../../packages/rdma-protocol/dist/index.js').RdmaToken} o.token PUT token of the client region, parsed
 * @param {(b: Uint8Array) => boolean} o.verify whether a buffer holds the client's bytes
 * @returns {Promise<number>} serial time / concurrent time
 */
export async function parallelSpeedup({ server, buffers, size, token, verify }) {
  const phase = async (concurrent) => {
    for (const b of buffers) b.bytes.fill(0);
    const t0 = performance.now();
    const one = (buffer) => server.handlePut({ buffer, size, token });
    if (concurrent) await Promise.all(buffers.map(one));
    else for (const b of buffers) await one(b);
    const ms = performance.now() - t0;
    if (!buffers.every((b) => verify(b.bytes))) throw new Error('parallel PUT bytes differ');
    return ms;
  };
  const serial = await phase(false);
  const concurrent = await phase(true);
  return serial / concurrent;
}
