// The gateway under test, as its own process: PosixBackend on a temp root, wrapped in CuServer
// (softnic RdmaServer + BufferPool) with cu-middleware in front, on 127.0.0.1 at an ephemeral
// port. Imports the workspace packages' built dist/ by path (bench/ is not a workspace package).
// argv[2]: JSON { root, access, secret, channels, pool: { count, size } }.
// Prints one JSON line {"port": N} when ready; SIGTERM closes it and exits 0.

const opts = JSON.parse(process.argv[2] ?? '{}');
const dist = (name) => new URL(`../../packages/${name}/dist/index.js`, import.meta.url).href;
const { PosixBackend } = await import(dist('backend-posix'));
const { BufferPool } = await import(dist('bufferpool'));
const { CuServer } = await import(dist('cu-backend'));
const { cuMiddleware } = await import(dist('cu-middleware'));
const { createGateway, staticCredentials } = await import(dist('gateway'));
const { RdmaServer } = await import(dist('rdma-ffi'));

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
