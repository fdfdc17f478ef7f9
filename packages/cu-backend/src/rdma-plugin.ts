// rdmaPlugin(): the RDMA data path as one gateway plugin. An embedder writes one line,
//
//   const gateway = createGateway({ backend, credentials, plugins: [rdmaPlugin({ ip, poolBufSize, poolBufCount })] });
//   await gateway.shutdown(); // HTTP server, then the plugin (pool, RDMA server), then the backend
//
// and the plugin installs itself: it opens the RDMA server and buffer pool (openRdmaTransport),
// declares the legacy X-CuObj-* headers must-sign (rdma-signing.ts), adds its edge middleware at
// the `afterAuthenticate` step (rdma-edge.ts: SigV2 refused, token → descriptor, anonymous →
// decline, agent address policy), decorates the backend with CuServer, serves
// `PATCH /rdma-stats`, reports each request's RDMA outcome as observation fields
// (rdma-observation.ts) and closes pool and server at shutdown. The object is a
// @vgwrdma/gateway GatewayPlugin by shape only, so this package does not depend on the gateway.

import type { Backend } from '@vgwrdma/backend-contract';
import type { BufferPool } from '@vgwrdma/bufferpool';
import type { RdmaServer } from '@vgwrdma/rdma-ffi';
import { AgentPolicy } from './agent-policy.js';
import { CuServer } from './cu-server.js';
import {
  type CuServerConfig,
  cuServerOptions,
  openRdmaTransport,
  type RdmaTransport,
} from './open-cu-server.js';
import { type RdmaEdgeMiddleware, rdmaEdge } from './rdma-edge.js';
import type { RdmaRequestRecord } from './rdma-grant.js';
import { observeRecord, RDMA_PLUGIN_NAME, type RdmaObservation } from './rdma-observation.js';
import { parseRdmaPluginOptions, type RdmaPluginOptions } from './rdma-plugin-options.js';
import { RDMA_SIGNED_HEADER_PREFIXES } from './rdma-signing.js';
import { type RdmaStatsReport, rdmaStatsReport, rdmaStatsResponse } from './rdma-stats.js';
import type { TransferListener } from './transfer-events.js';

/** What rdmaPlugin's install() uses of the gateway's stack (a GatewayStack, by shape). */
export interface RdmaPluginStack {
  add(step: 'afterAuthenticate', middleware: RdmaEdgeMiddleware): void;
  wrapBackend(wrap: (backend: Backend) => Backend): void;
}

export interface RdmaPlugin {
  readonly name: typeof RDMA_PLUGIN_NAME;
  /** The transport (read-only use: provider, stats). Opens it when not open yet. */
  readonly server: RdmaServer;
  /** The registered buffers (read-only use: stats). Opens the transport when not open yet. */
  readonly pool: BufferPool;
  /**
   * Opens the RDMA server and the buffer pool, once (install() does it when nobody did before).
   * A transport that cannot start throws an Error saying what was asked for and why; one this
   * build lacks (cuobj without NVIDIA's library) throws rdma-ffi's own one-sentence error.
   */
  open(): void;
  /** `x-cuobj-`: the legacy RDMA trio must be signed under SigV4, like x-amz-rdma-token (rdma-signing.ts). */
  readonly signedHeaderPrefixes: readonly string[];
  /** Called by createGateway(): the edge middleware after authentication, CuServer around the backend. */
  install(stack: RdmaPluginStack): void;
  /** `PATCH /rdma-stats` (admin accounts): `stats()` as JSON. */
  readonly adminHandlers: Readonly<Record<'rdma-stats', () => Promise<Response>>>;
  /** The counters of CuServer, the pool and the transport. Throws before install(). */
  stats(): RdmaStatsReport;
  /** CuServer's per-transfer outcomes (metrics). Throws before install(). */
  onTransfer(listener: TransferListener): () => void;
  /** This request's RDMA outcome (observation fields), when it carried a descriptor. */
  observe(c: object): { objectSize?: number; fields: RdmaObservation } | undefined;
  /**
   * For the gateway's ready path: ok while the buffer pool is allocated and the RDMA server's
   * session is up (and the plugin is installed); `detail` names what is missing otherwise.
   */
  readiness(): { ok: boolean; detail?: string };
  /**
   * Declines new transfers, waits for the buffers to come back, closes the pool and the RDMA
   * server. The decorated backend stays open (the gateway shuts it down next). Idempotent.
   */
  shutdown(): Promise<void>;
}

/** rdma-ffi's code for a transport this host cannot use (cuobj without NVIDIA's library). */
const PROVIDER_UNAVAILABLE = 'VGW_ERR_NATIVE_PROVIDER_UNAVAILABLE';

/** Validates `options` (an InvalidArgumentError naming the field); opens nothing until open() or install(). */
export function rdmaPlugin(options: RdmaPluginOptions): RdmaPlugin {
  const config = parseRdmaPluginOptions(options);
  const policy = new AgentPolicy(config.allowAgents);
  const requests = new WeakMap<object, RdmaRequestRecord>();
  let transport: RdmaTransport | undefined;
  let cu: CuServer | undefined;
  let stopped: Promise<void> | undefined;

  const opened = (): RdmaTransport => {
    if (transport !== undefined) return transport; // after shutdown too: read-only use
    if (stopped) throw new Error('rdmaPlugin: opened after shutdown()');
    transport = openOrExplain(config);
    return transport;
  };
  const installed = (): CuServer => {
    if (cu === undefined)
      throw new Error('rdmaPlugin: not installed (give it to createGateway({ plugins }))');
    return cu;
  };
  const stats = () => rdmaStatsReport(installed());

  return {
    name: RDMA_PLUGIN_NAME,
    get server() {
      return opened().server;
    },
    get pool() {
      return opened().pool;
    },
    open: () => void opened(),
    signedHeaderPrefixes: RDMA_SIGNED_HEADER_PREFIXES,
    install(stack) {
      if (cu !== undefined) throw new Error('rdmaPlugin: installed twice; one plugin serves one gateway');
      const t = opened();
      stack.add(
        'afterAuthenticate',
        rdmaEdge({ transport: config.transport ?? 'softnic', policy, requests }),
      );
      stack.wrapBackend((backend) => {
        cu = new CuServer(cuServerOptions(config, t), backend);
        return cu;
      });
    },
    adminHandlers: { 'rdma-stats': async () => rdmaStatsResponse(stats()) },
    stats,
    onTransfer: (listener) => installed().onTransfer(listener),
    observe(c) {
      const record = requests.get(c);
      return record === undefined ? undefined : observeRecord(record);
    },
    readiness() {
      const missing = [
        cu === undefined ? 'not installed in a gateway' : '',
        stopped !== undefined || transport === undefined || transport.pool.closed ? 'buffer pool closed' : '',
        transport?.server.connected ? '' : 'RDMA server not connected',
      ].filter(Boolean);
      if (missing.length > 0 || transport === undefined) return { ok: false, detail: missing.join('; ') };
      const { count, bufferSize } = transport.pool.stats();
      return {
        ok: true,
        detail: `${count} x ${bufferSize}-byte buffers, ${transport.server.channelCount} channels`,
      };
    },
    shutdown() {
      stopped ??= (async () => {
        await cu?.closeRdma();
        await transport?.pool.close();
        await transport?.server.closeAsync();
      })();
      return stopped;
    },
  };
}

function openOrExplain(config: CuServerConfig): RdmaTransport {
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
