// What HostClient and GpuClient share: creating the native client (and, on softnic, its agent
// thread), allocating and registering regions, and tearing all of it down. The flavour-specific
// native calls come from a ClientAbi table.

import { InvalidArgumentError } from '@vgwrdma/errors';
import { errnoOf, RdmaError } from '../errors.js';
import type { RdmaHostClientConfigStruct } from '../native/layouts.js';
import { loadShimLibrary, type Ptr, type ShimLibrary } from '../native/shim-library.js';
import { PROVIDER_ID } from '../provider.js';
import type { ClientAbi, MemoryKind } from './client-abi.js';
import { HostMemory } from './host-memory.js';

/** Largest region one registration may cover: 4 GiB − 64 KiB (RDMA_HOST_MAX_REGION). */
export const MAX_HOST_REGION = 2 ** 32 - 2 ** 16;

export interface HostClientOptions {
  /** Directory holding libvgwrdma_shims.so (else VGWRDMA_SHIM_DIR, the platform package, the repo build). */
  readonly shimDir?: string;
  /**
   * 'softnic' (default), 'verbs' (host memory on an mlx5 NIC; a build with rdma-core headers) or
   * 'cuobj' (NVIDIA's cuObjClient: host or CUDA device memory registered directly; needs the
   * cuobj plugin and libcuobjclient — else creation fails with ENODEV naming what is missing).
   */
  readonly provider?: 'softnic' | 'verbs' | 'cuobj';
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
  /** verbs: GID index; default -1 = automatic (a routable RoCE v2 GID first). */
  readonly gidIndex?: number;
}

/** rdma_host_client_wrapper.h's RDMA_HOST_CLIENT_SET_* bits (ABI 1.8). */
const SET_BITS = { deviceName: 0x1, portNum: 0x2, gidIndex: 0x4, dcKey: 0x8 } as const;

function config(defaults: RdmaHostClientConfigStruct, o: HostClientOptions): RdmaHostClientConfigStruct {
  const c = { ...defaults };
  if (o.provider !== undefined) c.provider = PROVIDER_ID[o.provider];
  if (o.agentAddress !== undefined) c.agent_addr = o.agentAddress;
  if (o.agentPort !== undefined) c.agent_port = o.agentPort;
  if (o.dcKey !== undefined) c.dc_key = o.dcKey;
  if (o.allowDirect !== undefined) c.allow_direct = o.allowDirect ? 1 : 0;
  if (o.ioTimeoutMs !== undefined) c.io_timeout_ms = o.ioTimeoutMs;
  // The verbs provider reads VGWRDMA_RDMA_DEV/_PORT/_GID_INDEX/_DC_KEY only for the fields not
  // marked here: an option given in code always wins over the environment.
  let set = 0;
  if (o.deviceName !== undefined) {
    c.dev_name = o.deviceName;
    set |= SET_BITS.deviceName;
  }
  if (o.portNum !== undefined) {
    c.port_num = o.portNum;
    set |= SET_BITS.portNum;
  }
  if (o.gidIndex !== undefined) {
    c.gid_index = o.gidIndex;
    set |= SET_BITS.gidIndex;
  }
  if (o.dcKey !== undefined) set |= SET_BITS.dcKey;
  c.explicit_fields = set;
  return c;
}

function checkSize(size: number): void {
  if (!Number.isSafeInteger(size) || size <= 0 || size > MAX_HOST_REGION) {
    throw new InvalidArgumentError(`region size must be 1..${MAX_HOST_REGION}, got ${size}`);
  }
}

/** @internal everything a region object needs about its registration. */
export interface RegionInit {
  readonly lib: ShimLibrary;
  readonly abi: ClientAbi;
  readonly client: Ptr;
  readonly handle: Ptr;
  readonly address: bigint;
  readonly size: number;
  readonly kind: MemoryKind;
  readonly owned: boolean;
}

export abstract class ClientBase implements Disposable {
  /** @internal */
  protected readonly lib: ShimLibrary;
  private readonly abi: ClientAbi;
  private client: Ptr;
  private readonly regions = new Set<HostMemory>();

  protected constructor(options: HostClientOptions, abiOf: (lib: ShimLibrary) => ClientAbi) {
    this.lib = loadShimLibrary({ shimDir: options.shimDir });
    this.abi = abiOf(this.lib);
    const defaults = {} as RdmaHostClientConfigStruct;
    this.lib.fn.rdma_host_client_config_default(defaults);
    this.client = this.abi.create(config(defaults, options));
    if (this.client === 0n) {
      const { errno, message } = this.lib.lastError();
      throw new RdmaError(`create${this.abi.name}`, errno || errnoOf('ENODEV'), message);
    }
  }

  private get live(): Ptr {
    if (this.client === 0n) throw new RdmaError(this.abi.name, errnoOf('EBADF'), 'client is closed');
    return this.client;
  }

  /** softnic: the agent's bound TCP port. */
  get agentPort(): number {
    const p = this.abi.agentPort(this.live);
    if (p < 0) throw new RdmaError('agentPort', p, this.lib.lastError().message);
    return p;
  }

  /** softnic: allow or forbid the same-host direct path for connections made from now on. */
  setDirectAccess(allow: boolean): void {
    const r = this.abi.setDirect(this.live, allow);
    if (r < 0) throw new RdmaError('setDirectAccess', r, this.lib.lastError().message);
  }

  /** @internal allocate + register, freeing the memory again if registration fails. */
  protected allocateKind(size: number, kind: MemoryKind): HostMemory {
    checkSize(size);
    const c = this.live;
    const address = this.abi.alloc(c, size, kind);
    if (address === 0n) {
      const { errno, message } = this.lib.lastError();
      throw new RdmaError('alloc', errno || errnoOf('ENOMEM'), message);
    }
    try {
      return this.track(address, size, kind, true);
    } catch (e) {
      this.abi.free(c, address);
      throw e;
    }
  }

  /** @internal */
  protected registerKind(address: bigint, size: number, kind: MemoryKind): HostMemory {
    checkSize(size);
    if (address === 0n) throw new InvalidArgumentError('register: NULL address');
    return this.track(address, size, kind, false);
  }

  private track(address: bigint, size: number, kind: MemoryKind, owned: boolean): HostMemory {
    const c = this.live;
    const mr = this.abi.register(c, address, size, kind);
    if (mr === 0n) {
      const { errno, message } = this.lib.lastError();
      throw new RdmaError('register', errno || errnoOf('EINVAL'), message);
    }
    const m = this.wrapRegion(
      { lib: this.lib, abi: this.abi, client: c, handle: mr, address, size, kind, owned },
      (x) => this.regions.delete(x),
    );
    this.regions.add(m);
    return m;
  }

  /** @internal the region object for a fresh registration; GpuClient gives device memory its own class. */
  protected wrapRegion(r: RegionInit, onClose: (m: HostMemory) => void): HostMemory {
    return new HostMemory(r.lib, r.abi, r.client, r.handle, r.address, r.size, r.kind, r.owned, onClose);
  }

  /** @internal the live native client handle (throws EBADF after close). */
  protected get handle(): Ptr {
    return this.live;
  }

  /** Closes every region, stops the agent (dropping gateway connections) and frees the client. Idempotent. */
  close(): void {
    if (this.client === 0n) return;
    // Registrations of caller memory first: memory the client allocated cannot be freed while
    // another registration still covers it.
    for (const m of [...this.regions].sort((a, b) => Number(a.owned) - Number(b.owned))) m.close();
    this.abi.destroy(this.client);
    this.client = 0n;
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
