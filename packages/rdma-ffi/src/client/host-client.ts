// HostClient: the client side of softnic/verbs transfers (rdma_host_client_wrapper.h). On
// softnic it runs an agent thread that serves the gateway's READ/WRITE requests on registered
// regions only (rkey + bounds checked, DC key checked at connect); the tokens it mints carry the
// agent's IPv4-mapped address (GID) and port (DCTN). Used by cuobjclient's sessions.

import { errnoOf, RdmaError } from '../errors.js';
import type { RdmaHostClientConfigStruct } from '../native/layouts.js';
import { loadShimLibrary, type Ptr, type ShimLibrary } from '../native/shim-library.js';
import { PROVIDER_ID } from '../provider.js';
import { HostMemory } from './host-memory.js';

/** Largest region one registration may cover: 4 GiB − 64 KiB (RDMA_HOST_MAX_REGION). */
export const MAX_HOST_REGION = 2 ** 32 - 2 ** 16;

export interface HostClientOptions {
  /** Directory holding libvgwrdma_shims.so (else VGWRDMA_SHIM_DIR, the platform package, the repo build). */
  readonly shimDir?: string;
  /** 'softnic' (default) or 'verbs' (needs an RDMA NIC and a build with rdma-core). */
  readonly provider?: 'softnic' | 'verbs';
  /** softnic: IPv4 address the agent listens on and advertises in tokens; default 127.0.0.1. */
  readonly agentAddress?: string;
  /** softnic: agent TCP port; default 0 (ephemeral; read `agentPort`). */
  readonly agentPort?: number;
  /** DC access key gateways must present; default 0xffeeddccn. */
  readonly dcKey?: bigint;
  /** softnic: let a same-host gateway use process_vm_readv/writev after proving access; default true. */
  readonly allowDirect?: boolean;
  /** softnic: agent socket send/recv wait in ms; default 10000. */
  readonly ioTimeoutMs?: number;
  /** verbs: RDMA device name (e.g. 'mlx5_0'); default the first. */
  readonly deviceName?: string;
  /** verbs: HCA port; default 1. */
  readonly portNum?: number;
  /** verbs: GID index; default 3 (RoCEv2 IPv4). */
  readonly gidIndex?: number;
}

function config(defaults: RdmaHostClientConfigStruct, o: HostClientOptions): RdmaHostClientConfigStruct {
  const c = { ...defaults };
  if (o.provider !== undefined) c.provider = PROVIDER_ID[o.provider];
  if (o.agentAddress !== undefined) c.agent_addr = o.agentAddress;
  if (o.agentPort !== undefined) c.agent_port = o.agentPort;
  if (o.dcKey !== undefined) c.dc_key = o.dcKey;
  if (o.allowDirect !== undefined) c.allow_direct = o.allowDirect ? 1 : 0;
  if (o.ioTimeoutMs !== undefined) c.io_timeout_ms = o.ioTimeoutMs;
  if (o.deviceName !== undefined) c.dev_name = o.deviceName;
  if (o.portNum !== undefined) c.port_num = o.portNum;
  if (o.gidIndex !== undefined) c.gid_index = o.gidIndex;
  return c;
}

export class HostClient implements Disposable {
  private readonly lib: ShimLibrary;
  private client: Ptr;
  private readonly regions = new Set<HostMemory>();

  /** Starts the client (and, on softnic, its agent). Throws RdmaLoadError or RdmaError (e.g. EADDRINUSE). */
  constructor(options: HostClientOptions = {}) {
    this.lib = loadShimLibrary({ shimDir: options.shimDir });
    const defaults = {} as RdmaHostClientConfigStruct;
    this.lib.fn.rdma_host_client_config_default(defaults);
    this.client = this.lib.fn.rdma_host_client_create(config(defaults, options));
    if (this.client === 0n) {
      const { errno, message } = this.lib.lastError();
      throw new RdmaError('createHostClient', errno || errnoOf('ENODEV'), message);
    }
  }

  private get live(): Ptr {
    if (this.client === 0n) throw new RdmaError('hostClient', errnoOf('EBADF'), 'client is closed');
    return this.client;
  }

  /** softnic: the agent's bound TCP port. */
  get agentPort(): number {
    const p = this.lib.fn.rdma_host_client_agent_port(this.live);
    if (p < 0) throw new RdmaError('agentPort', p, this.lib.lastError().message);
    return p;
  }

  /** softnic: allow or forbid the same-host direct path for connections made from now on. */
  setDirectAccess(allow: boolean): void {
    const r = this.lib.fn.rdma_host_client_set_direct_access(this.live, allow ? 1 : 0);
    if (r < 0) throw new RdmaError('setDirectAccess', r, this.lib.lastError().message);
  }

  /** Allocates `size` bytes of page-aligned zeroed native memory and registers it. */
  allocate(size: number): HostMemory {
    checkSize(size);
    const c = this.live;
    const address = this.lib.fn.rdma_host_client_alloc(c, size);
    if (address === 0n) {
      const { errno, message } = this.lib.lastError();
      throw new RdmaError('alloc', errno || errnoOf('ENOMEM'), message);
    }
    try {
      return this.track(address, size, true);
    } catch (e) {
      this.lib.fn.rdma_host_client_free(c, address);
      throw e;
    }
  }

  /** Registers caller-owned native memory, which must stay valid until the region is closed. */
  register(address: bigint, size: number): HostMemory {
    checkSize(size);
    if (address === 0n) throw new RangeError('register: NULL address');
    return this.track(address, size, false);
  }

  private track(address: bigint, size: number, owned: boolean): HostMemory {
    const c = this.live;
    const mr = this.lib.fn.rdma_host_client_register(c, address, size);
    if (mr === 0n) {
      const { errno, message } = this.lib.lastError();
      throw new RdmaError('register', errno || errnoOf('EINVAL'), message);
    }
    const m = new HostMemory(this.lib, c, mr, address, size, owned, (x) => this.regions.delete(x));
    this.regions.add(m);
    return m;
  }

  /** Closes every region, stops the agent (dropping gateway connections) and frees the client. Idempotent. */
  close(): void {
    if (this.client === 0n) return;
    for (const m of [...this.regions]) m.close();
    this.lib.fn.rdma_host_client_destroy(this.client);
    this.client = 0n;
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

function checkSize(size: number): void {
  if (!Number.isSafeInteger(size) || size <= 0 || size > MAX_HOST_REGION) {
    throw new RangeError(`region size must be 1..${MAX_HOST_REGION}, got ${size}`);
  }
}
