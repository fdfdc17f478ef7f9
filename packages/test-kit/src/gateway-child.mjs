// The in-process gateway as a child process, for the tests and the bench that need a real gateway
// with RDMA but not the whole app: a posix backend on a directory, or an S3 proxy (S3Backend) in
// front of another endpoint, embedded with cu-backend's rdmaPlugin exactly as the app and the
// cu-backend README do it, on 127.0.0.1 at an ephemeral port, with one admin credential.
//
//   node gateway-child.mjs '<json options>'   (the fields: gateway-child-schema.mjs; the TS type and a
//                                              launcher: gateway-child-process.ts)
//
// Prints one JSON line {"port": N} on stdout when it listens; SIGTERM / SIGINT run the gateway's
// ordered shutdown (HTTP server, RDMA plugin, backend) and exit 0. Bad options exit 2 with a
// message naming the field.
//
// Plain node, so it imports the workspace packages' built dist/ — by relative path, not by package
// name: test-kit declares no dependency on them, so any package's tests (backend-s3's too) may use
// it without a cycle in the workspace graph, and bench/device/bundle.mjs can bundle it statically.
import { PosixBackend } from '../../backend-posix/dist/index.js';
import { rdmaPlugin } from '../../cu-backend/dist/index.js';
import { createGateway, staticCredentials } from '../../gateway/dist/index.js';
import { parseGatewayChildOptions } from './gateway-child-schema.mjs';

let opts;
try {
  opts = parseGatewayChildOptions(JSON.parse(process.argv[2] ?? '{}'));
} catch (error) {
  process.stderr.write(`gateway-child: ${error.message}\n`);
  process.exit(2);
}

async function openBackend(backend) {
  if (backend.kind === 'posix') {
    const { root, etagPartSize } = backend;
    const etagMode = etagPartSize === undefined ? undefined : { kind: 'parts', partSize: etagPartSize };
    return PosixBackend.open({ root, ...(etagMode ? { etagMode } : {}) });
  }
  // Only the proxy needs the AWS SDK: load it on demand.
  const { S3Backend } = await import('../../backend-s3/dist/index.js');
  return S3Backend.open({
    endpoint: backend.endpoint,
    access: backend.access,
    secret: backend.secret,
    usePathStyle: true,
    ...(backend.metaBucket === undefined ? {} : { metaBucket: backend.metaBucket }),
  });
}

const backend = await openBackend(opts.backend);
const rdma =
  opts.rdma === false
    ? undefined
    : rdmaPlugin({
        numDcis: opts.rdma.channels,
        ioTimeoutMs: opts.rdma.ioTimeoutMs,
        poolBufCount: opts.rdma.pool.count,
        poolBufSize: opts.rdma.pool.size,
        poolWaitMs: opts.rdma.poolWaitMs,
        ...(opts.rdma.maxTransferSize === undefined ? {} : { maxTransferSize: opts.rdma.maxTransferSize }),
        ...(opts.rdma.putLanes === undefined ? {} : { putLanes: opts.rdma.putLanes }),
        ...(opts.rdma.maxPerAgent === undefined ? {} : { maxPerAgent: opts.rdma.maxPerAgent }),
      });
const gateway = createGateway({
  backend,
  plugins: rdma ? [rdma] : [],
  credentials: staticCredentials([{ access: opts.access, secret: opts.secret, account: { role: 'admin' } }]),
  region: 'us-east-1',
});
const running = await gateway.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`${JSON.stringify({ port: running.port })}\n`);

let closing = false;
async function stop() {
  if (closing) return;
  closing = true;
  try {
    await gateway.shutdown();
    process.exit(0);
  } catch (error) {
    process.stderr.write(`gateway-child: ${error.message}\n`);
    process.exit(1);
  }
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
