// The documented defaults of the served config, written once for the command-line unit tests that
// compare a whole backend or RDMA section with toEqual: the posix backend's settings besides its
// root, and the RDMA settings besides the address and the buffer pool (which the tests choose).
import type { GatewayConfig } from '../../src/config.js';

type PosixConfig = Extract<GatewayConfig['backend'], { kind: 'posix' }>;
type RdmaConfig = NonNullable<GatewayConfig['rdma']>;

/** `posix <root>` with no posix flag: everything but `kind` and `root`. */
export const POSIX_DEFAULTS = {
  nometa: false,
  dirPerms: 0o755,
  etagMode: { kind: 'md5' },
  filePerms: 0o644,
  concurrency: 5000,
  chownUid: false,
  chownGid: false,
  bucketLinks: false,
} as const satisfies Partial<PosixConfig>;

/** `--rdma-ip` alone: everything but the address and the pool's buffer size and count. */
export const RDMA_DEFAULTS = {
  port: 19100,
  transport: 'softnic',
  numDcis: 128,
  dcKey: 0xffeeddccn,
  cqDepth: 640,
  retryCount: 7,
  poolWaitMs: 1000,
  getLanes: 2,
  putLanes: 2,
  directPrivileged: false,
  transferTimeoutMs: 30_000, // + size at 50 MB/s; the per-agent cap defaults in CuServer
  vendorDebug: false,
} as const satisfies Partial<RdmaConfig>;
