// RdmaServer options and how they map onto the flat C tunables (cuobj_rdma_tunables_t). Start
// from the library's defaults (cuobj_server_tunables_default) and overwrite only what was given.

import type { CuobjRdmaTunablesStruct } from '../native/layouts.js';
import { PROVIDER_ID, type RdmaProvider } from '../provider.js';

/** Vendor-only tunables (NVIDIA's cuObject API), in camelCase; softnic ignores them. */
export interface VendorTunables {
  cqDepth: number;
  serviceLevel: number;
  timeout: number;
  hopLimit: number;
  pkeyIndex: number;
  maxSge: number;
  delayIntervalNs: number;
  delayMode: number;
  qpResetOnFailure: boolean;
  retryCount: number;
  trafficClass: number;
  maxRdAtomic: number;
}

export interface RdmaServerOptions {
  /** Directory holding libvgwrdma_shims.so (else VGWRDMA_SHIM_DIR, the platform package, the repo build). */
  readonly shimDir?: string;
  /** Transport provider; default 'softnic'. */
  readonly provider?: RdmaProvider;
  /** Local address outgoing connections bind to; default any. cuobj: the RDMA NIC's address. */
  readonly bindAddress?: string;
  /** cuobj: the port cuObjServer listens on (vgwrdma --rdma-port); softnic ignores it. Default 0. */
  readonly port?: number;
  /** Number of channels (DCIs), 1..65534; default 128. Each softnic channel has a worker thread. */
  readonly channels?: number;
  /** DC access key presented to client agents; default 0xffeeddccn. */
  readonly dcKey?: bigint;
  /** softnic: per-socket send/recv wait in ms (a dead peer fails with ETIMEDOUT); default 10000. */
  readonly ioTimeoutMs?: number;
  /** softnic: connect + handshake timeout in ms; default 3000. */
  readonly connectTimeoutMs?: number;
  /** softnic: TCP data frame payload in bytes (4 KiB..64 MiB); default 1 MiB. */
  readonly frameSize?: number;
  /** softnic: use process_vm_readv/writev when the agent proves it is on this host; default true. */
  readonly allowDirect?: boolean;
  /**
   * softnic: allow the direct path even when this process is more privileged than the client
   * (euid 0 or CAP_SYS_PTRACE, client uid ≠ our euid); default false (such clients use TCP).
   * A client whose credentials change after the proof (setuid/setgid exec) or that is not
   * dumpable is refused regardless (SOFTNIC.md).
   */
  readonly directPrivileged?: boolean;
  /**
   * Largest byte count of one native call (1..1 GiB, the ABI limit and the default); larger
   * transfers are split into sequential calls on the same channel.
   */
  readonly maxBytesPerCall?: number;
  /** Vendor provider tunables. */
  readonly vendor?: Partial<VendorTunables>;
  /**
   * cuobj: the library's telemetry (cuObjServer::setTelemFlags) — 'errors' (default) or 'debug'
   * (path info + debug + errors; vgwrdma's --debug). softnic has none and ignores it.
   */
  readonly vendorTelemetry?: VendorTelemetry;
}

export type VendorTelemetry = 'errors' | 'debug';

/** CUOBJ_LOG_PATH_INFO 0x1 | DEBUG 0x2 | ERROR 0x4 (NVIDIA's cuObject API), per level. */
export const VENDOR_TELEMETRY_FLAGS: Readonly<Record<VendorTelemetry, number>> = {
  errors: 0x4,
  debug: 0x1 | 0x2 | 0x4,
};

type Field = keyof CuobjRdmaTunablesStruct;
const VENDOR_FIELDS: Readonly<Record<keyof VendorTunables, Field>> = {
  cqDepth: 'cq_depth',
  serviceLevel: 'service_level',
  timeout: 'timeout',
  hopLimit: 'hop_limit',
  pkeyIndex: 'pkey_index',
  maxSge: 'max_sge',
  delayIntervalNs: 'delay_interval',
  delayMode: 'delay_mode',
  qpResetOnFailure: 'qp_reset_on_failure',
  retryCount: 'retry_cnt',
  trafficClass: 'traffic_class',
  maxRdAtomic: 'max_rd_atomic',
};

/** Writes the given options over `t` (the C defaults). */
export function applyServerOptions(
  t: CuobjRdmaTunablesStruct,
  o: RdmaServerOptions,
): CuobjRdmaTunablesStruct {
  const out: CuobjRdmaTunablesStruct = { ...t };
  if (o.provider !== undefined) out.provider = PROVIDER_ID[o.provider];
  if (o.channels !== undefined) out.num_dcis = o.channels;
  if (o.dcKey !== undefined) out.dc_key = o.dcKey;
  if (o.ioTimeoutMs !== undefined) out.io_timeout_ms = o.ioTimeoutMs;
  if (o.connectTimeoutMs !== undefined) out.connect_timeout_ms = o.connectTimeoutMs;
  if (o.frameSize !== undefined) out.frame_size = o.frameSize;
  if (o.allowDirect !== undefined) out.allow_direct = o.allowDirect ? 1 : 0;
  if (o.directPrivileged !== undefined) out.direct_privileged = o.directPrivileged ? 1 : 0;
  for (const [name, field] of Object.entries(VENDOR_FIELDS) as [keyof VendorTunables, Field][]) {
    const v = o.vendor?.[name];
    if (v !== undefined)
      (out as unknown as Record<Field, number>)[field] = typeof v === 'boolean' ? Number(v) : v;
  }
  return out;
}
