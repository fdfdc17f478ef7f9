// rdmaPlugin(): the RDMA data path as one gateway plugin. It opens the RDMA server and buffer pool
// (openRdmaTransport), and gives an embedder the three pieces to plug in:
//
//   const rdma = await rdmaPlugin(options);
//   const gateway = createGateway({ backend: rdma.wrap(backend), plugins: [rdma], ... });
//   await gateway.shutdown(); // HTTP server, then rdma.shutdown(), then the backend
//
// `wrap()` decorates the backend with CuServer, `middleware` is cu-middleware (the RDMA headers →
// the request's descriptor), `adminHandlers` serves `PATCH /rdma-stats`, `shutdown()` closes the
// pool and the RDMA server. The object is a @vgwrdma/gateway GatewayPlugin by shape only, so this
// package does not depend on the gateway.

import type { Backend } from '@vgwrdma/backend-contract';
import type { BufferPool } from '@vgwrdma/bufferpool';
import { type CuEnv, cuMiddleware } from '@vgwrdma/cu-middleware';
import type { RdmaServer } from '@vgwrdma/rdma-ffi';
import type { Context, Next } from 'hono';
import { CuServer } from './cu-server.js';
import { cuServerOptions, openRdmaTransport } from './open-cu-server.js';
import { parseRdmaPluginOptions, type RdmaPluginOptions } from './rdma-plugin-options.js';
import { type RdmaStatsReport, rdmaStatsReport, rdmaStatsResponse } from './rdma-stats.js';
import type { TransferListener } from './transfer-events.js';

export interface RdmaPlugin {
  readonly name: 'rdma';
  /** The transport (read-only use: provider, stats). */
  readonly server: RdmaServer;
  /** The registered buffers (read-only use: stats). */
  readonly pool: BufferPool;
  /**
   * cu-middleware, rendering refusals through the gateway's error handler. Generic over the
   * context, so it fits any hono app whose variables include cu-middleware's (the gateway's do).
   */
  readonly middleware: <E extends CuEnv>(c: Context<E>, next: Next) => Promise<Response | undefined>;
  /** `PATCH /rdma-stats` (admin accounts): `stats()` as JSON. */
  readonly adminHandlers: Readonly<Record<'rdma-stats', () => Promise<Response>>>;
  /** Decorates `backend` with CuServer over this plugin's server and pool. Once per plugin. */
  wrap(backend: Backend): CuServer;
  /** The counters of the wrapped CuServer, the pool and the transport. Throws before wrap(). */
  stats(): RdmaStatsReport;
  /** The wrapped CuServer's per-transfer outcomes (metrics, access log). Throws before wrap(). */
  onTransfer(listener: TransferListener): () => void;
  /**
   * For the gateway's ready path: ok while the buffer pool is allocated and the RDMA server's
   * session is up (and wrap() has been called); `detail` names what is missing otherwise.
   */
  readiness(): { ok: boolean; detail?: string };
  /**
   * Declines new transfers, waits for the buffers to come back, closes the pool and the RDMA
   * server. The wrapped backend stays open (the gateway shuts it down next). Idempotent.
   */
  shutdown(): Promise<void>;
}

/** rdma-ffi's code for a transport this host cannot use (cuobj without NVIDIA's library). */
const PROVIDER_UNAVAILABLE = 'VGW_ERR_NATIVE_PROVIDER_UNAVAILABLE';

/**
 * Validates `options` (a TypeError naming the field), then opens the transport. A transport that
 * cannot start throws an Error saying what was asked for and why; one this build lacks (cuobj
 * without NVIDIA's library) throws rdma-ffi's own one-sentence error unchanged.
 */
export async function rdmaPlugin(options: RdmaPluginOptions): Promise<RdmaPlugin> {
  const config = parseRdmaPluginOptions(options);
  const transport = openOrExplain(config);
  let cu: CuServer | undefined;
  let stopped: Promise<void> | undefined;
  const parse = cuMiddleware<CuEnv>({ errors: 'throw', transport: config.transport ?? 'softnic' });

  const wrapped = (): CuServer => {
    if (cu === undefined)
      throw new Error('rdmaPlugin: wrap() the gateway backend first (rdma.wrap(backend))');
    return cu;
  };
  const stats = () => rdmaStatsReport(wrapped());

  return {
    name: 'rdma',
    server: transport.server,
    pool: transport.pool,
    // Without wrap() a descriptor would reach a backend that ignores it (a PUT would store its empty
    // HTTP body), so an unwrapped gateway answers every request with an error instead.
    middleware: async (c, next) => {
      wrapped();
      // cu-middleware reads and writes only CuEnv's variables, which E includes.
      return (await parse(c as unknown as Context<CuEnv>, next)) ?? undefined;
    },
    adminHandlers: { 'rdma-stats': async () => rdmaStatsResponse(stats()) },
    wrap(backend) {
      if (stopped) throw new Error('rdmaPlugin: wrap() after shutdown()');
      if (cu !== undefined)
        throw new Error('rdmaPlugin: wrap() was already called; one plugin wraps one backend');
      cu = new CuServer(cuServerOptions(config, transport), backend);
      return cu;
    },
    stats,
    readiness() {
      const missing = [
        cu === undefined ? 'no backend wrapped' : '',
        stopped !== undefined || transport.pool.closed ? 'buffer pool closed' : '',
        transport.server.connected ? '' : 'RDMA server not connected',
      ].filter(Boolean);
      if (missing.length > 0) return { ok: false, detail: missing.join('; ') };
      const { count, bufferSize } = transport.pool.stats();
      return {
        ok: true,
        detail: `${count} x ${bufferSize}-byte buffers, ${transport.server.channelCount} channels`,
      };
    },
    onTransfer: (listener) => wrapped().onTransfer(listener),
    shutdown() {
      stopped ??= (async () => {
        await cu?.closeRdma();
        await transport.pool.close();
        await transport.server.closeAsync();
      })();
      return stopped;
    },
  };
}

function openOrExplain(config: RdmaPluginOptions): ReturnType<typeof openRdmaTransport> {
  try {
    return openRdmaTransport(config);
  } catch (error) {
    if ((error as { code?: unknown } | undefined)?.code === PROVIDER_UNAVAILABLE) throw error;
    const why = error instanceof Error ? error.message : String(error);
    const where = `${config.transport ?? 'softnic'} on ${config.ip ?? 'any address'}`;
    throw new Error(
      `cannot start RDMA (${where}, ${config.poolBufCount} x ${config.poolBufSize}-byte buffers): ${why}`,
      { cause: error },
    );
  }
}
