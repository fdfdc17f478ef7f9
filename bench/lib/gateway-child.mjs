// The gateway under test, as its own process: PosixBackend on a temp root, wrapped in CuServer
// (softnic RdmaServer + BufferPool) with cu-middleware in front, on 127.0.0.1 at an ephemeral
// port. Imports the workspace packages' built dist/ by relative path (bench/ is not a workspace
// package), statically, so that bench/device/bundle.mjs can bundle it into one file.
// argv[2]: JSON { root, access, secret, channels, pool: { count, size } }.
// Prints one JSON line {"port": N} when ready; SIGTERM closes it and exits 0.

import { PosixBackend } from '../../packages/backend-posix/dist/index.js';
import { BufferPool } from '../../packages/bufferpool/dist/index.js';
import { CuServer } from '../../packages/cu-backend/dist/index.js';
import { cuMiddleware } from '../../packages/cu-middleware/dist/index.js';
import { createGateway, staticCredentials } from '../../packages/gateway/dist/index.js';
import { RdmaServer } from '../../packages/rdma-ffi/dist/index.js';

const opts = JSON.parse(process.argv[2] ?? '{}');

const posix = await PosixBackend.open({ root: opts.root });
const server = new RdmaServer({ channels: opts.channels, ioTimeoutMs: 30_000 });
const pool = BufferPool.create(server, {
  count: opts.pool.count,
  size: opts.pool.size,
  defaultWaitMs: 60_000,
});
const backend = new CuServer({ server, pool }, posix);
const gateway = createGateway({
  backend,
  credentials: staticCredentials([{ access: opts.access, secret: opts.secret, account: { role: 'admin' } }]),
  region: 'us-east-1',
  middlewares: [cuMiddleware({ errors: 'throw' })],
});
const running = await gateway.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: running.port })}\n`);

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  await running.close();
  await backend.shutdown();
  process.exit(0);
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
