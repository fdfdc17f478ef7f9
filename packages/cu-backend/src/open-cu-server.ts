// openCuServer(): what an app does with its --rdma-* flags — create the RDMA server (transport,
// bind address, channels, DC key, vendor tunables), register the buffer pool once, and wrap the
// backend in CuServer, which then owns both. All or nothing: a failure closes what was created.
// rdmaPlugin() (rdma-plugin.ts) opens the same two with openRdmaTransport() and wraps later.
// The transport installs the native hashing kernels first (@vgwrdma/native/kernels).

import type { Backend } from '@vgwrdma/backend-contract';
import { BufferPool } from '@vgwrdma/bufferpool';
import { installNativeKernels } from '@vgwrdma/native/kernels';
import { RdmaServer, type RdmaServerOptions } from '@vgwrdma/rdma-ffi';
import { CuServer, type CuServerOptions } from './cu-server.js';

/** The CuServer settings a config hands on as they are (each documented on CuServerOptions). */
type CuServerTunables = Omit<CuServerOptions, 'server' | 'pool'>;

export interface CuServerConfig extends CuServerTunables {
  /** Local address the transport binds to (--rdma-ip); default any. */
  readonly ip?: string;
  /** 'softnic' (default) or 'cuobj' (the NVIDIA library; needs a build with it). */
  readonly transport?: 'softnic' | 'cuobj';
  /** cuobj: the port cuObjServer listens on (--rdma-port); softnic ignores it. */
  readonly port?: number;
  /** cuobj: the library's debug telemetry (vgwrdma --debug); default errors only. */
  readonly vendorDebug?: boolean;
  /** Bytes per pool buffer (--pool-buf-size). */
  readonly poolBufSize: number;
  /** Number of pool buffers (--pool-buf-count). */
  readonly poolBufCount: number;
  /** DC access key (--rdma-dc-key). */
  readonly dcKey?: bigint;
  /** Channels / DCIs (--rdma-num-dcis). */
  readonly numDcis?: number;
  /** Completion queue depth, vendor transport (--rdma-cq-depth). */
  readonly cqDepth?: number;
  /** Retry count 0..7, vendor transport (--rdma-retry-count). */
  readonly retryCount?: number;
  /**
   * softnic: direct path even when the gateway is more privileged than the client
   * (--rdma-direct-privileged); default false.
   */
  readonly directPrivileged?: boolean;
  /** IPv4 CIDRs whose agents any signed request may name (--rdma-allow-agents); default none. */
  readonly allowAgents?: readonly string[];
  /** Directory holding the native shims (else the usual search). */
  readonly shimDir?: string;
  /** softnic: per-socket send/recv wait in ms (a dead agent fails with ETIMEDOUT); default 10000. */
  readonly ioTimeoutMs?: number;
}

/** The RDMA server and its registered buffer pool, before any backend is wrapped. */
export interface RdmaTransport {
  readonly server: RdmaServer;
  readonly pool: BufferPool;
}

export function openCuServer(config: CuServerConfig, backend: Backend): CuServer {
  const transport = openRdmaTransport(config);
  try {
    return new CuServer(cuServerOptions(config, transport), backend);
  } catch (err) {
    transport.server.close();
    throw err;
  }
}

/** Creates the RDMA server and registers the pool with it; closes the server when the pool fails. */
export function openRdmaTransport(config: CuServerConfig): RdmaTransport {
  // RDMA uploads hash as they land (rdma-upload.ts): natively, whatever backend is wrapped.
  installNativeKernels();
  const vendor = {
    ...(config.cqDepth === undefined ? {} : { cqDepth: config.cqDepth }),
    ...(config.retryCount === undefined ? {} : { retryCount: config.retryCount }),
  };
  const options: RdmaServerOptions = {
    provider: config.transport ?? 'softnic',
    vendor,
    ...(config.ip === undefined ? {} : { bindAddress: config.ip }),
    ...(config.port === undefined ? {} : { port: config.port }),
    ...(config.vendorDebug ? { vendorTelemetry: 'debug' as const } : {}),
    ...(config.numDcis === undefined ? {} : { channels: config.numDcis }),
    ...(config.dcKey === undefined ? {} : { dcKey: config.dcKey }),
    ...(config.shimDir === undefined ? {} : { shimDir: config.shimDir }),
    ...(config.directPrivileged === undefined ? {} : { directPrivileged: config.directPrivileged }),
    ...(config.ioTimeoutMs === undefined ? {} : { ioTimeoutMs: config.ioTimeoutMs }),
  };
  const server = new RdmaServer(options);
  try {
    const pool = BufferPool.create(server, {
      count: config.poolBufCount,
      size: config.poolBufSize,
      ...(config.poolWaitMs === undefined ? {} : { defaultWaitMs: config.poolWaitMs }),
    });
    return { server, pool };
  } catch (err) {
    server.close();
    throw err;
  }
}

/** CuServer's options from the config, over an opened transport. */
export function cuServerOptions(config: CuServerConfig, transport: RdmaTransport): CuServerOptions {
  return {
    server: transport.server,
    pool: transport.pool,
    ...(config.poolWaitMs === undefined ? {} : { poolWaitMs: config.poolWaitMs }),
    ...(config.getLanes === undefined ? {} : { getLanes: config.getLanes }),
    ...(config.putLanes === undefined ? {} : { putLanes: config.putLanes }),
    ...(config.maxTransferSize === undefined ? {} : { maxTransferSize: config.maxTransferSize }),
    ...(config.chunkSize === undefined ? {} : { chunkSize: config.chunkSize }),
    ...(config.transferTimeoutMs === undefined ? {} : { transferTimeoutMs: config.transferTimeoutMs }),
    ...(config.maxPerAgent === undefined ? {} : { maxPerAgent: config.maxPerAgent }),
  };
}
