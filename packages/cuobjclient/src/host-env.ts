// Host-memory session configuration from the environment. The first four variables are the ones
// vgwrdma's host-memory client reads (RDMA device, HCA port, GID index, DC key); the VGWRDMA_SOFTNIC_*
// ones configure this project's software NIC agent. One table drives parsing and the README.
// Explicit Session.open options win over the environment.

import type { HostClientOptions } from '@vgwrdma/rdma-ffi';
import { CuObjError } from './errors.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type HostOptions = Mutable<Omit<HostClientOptions, 'shimDir'>>;

interface EnvVar {
  readonly name: string;
  readonly help: string;
  /** Applies the raw value, or returns an error text. */
  readonly apply: (value: string, into: HostOptions) => string | undefined;
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

function int(min: number, max: number, set: (n: number, o: HostOptions) => void) {
  return (v: string, o: HostOptions): string | undefined => {
    const n = Number(v);
    if (!/^-?\d+$/.test(v) || n < min || n > max) return `must be an integer in ${min}..${max}`;
    set(n, o);
    return undefined;
  };
}

/** Every environment variable a host session reads, in README order. */
export const HOST_ENV_VARS: readonly EnvVar[] = [
  {
    name: 'VGWRDMA_RDMA_DEV',
    help: "RDMA device for the verbs provider (e.g. mlx5_0); setting it selects provider 'verbs'",
    apply: (v, o) => {
      if (v === '') return 'must not be empty';
      o.deviceName = v;
      o.provider ??= 'verbs';
      return undefined;
    },
  },
  {
    name: 'VGWRDMA_RDMA_PORT',
    help: 'HCA port number for the verbs provider (default 1)',
    apply: int(1, 255, (n, o) => {
      o.portNum = n;
    }),
  },
  {
    name: 'VGWRDMA_GID_INDEX',
    help: 'GID index for the verbs provider (default -1 = automatic: a routable RoCE v2 GID, then IPv4-mapped v2, then v1)',
    apply: int(-1, 65535, (n, o) => {
      o.gidIndex = n;
    }),
  },
  {
    name: 'VGWRDMA_DC_KEY',
    help: 'DC access key the gateway must present, hex (0x...) or decimal; default 0xffeeddcc',
    apply: (v, o) => {
      if (!/^(0x[0-9a-f]{1,16}|\d{1,20})$/i.test(v)) return 'must be a 64-bit number, hex (0x...) or decimal';
      const key = BigInt(v);
      if (key >= 2n ** 64n) return 'must fit in 64 bits';
      o.dcKey = key;
      return undefined;
    },
  },
  {
    name: 'VGWRDMA_PROVIDER',
    help: "'softnic' (default), 'verbs' (libibverbs DC target) or 'cuobj' (NVIDIA libcuobjclient)",
    apply: (v, o) => {
      if (v !== 'softnic' && v !== 'verbs' && v !== 'cuobj') return "must be 'softnic', 'verbs' or 'cuobj'";
      o.provider = v;
      return undefined;
    },
  },
  {
    name: 'VGWRDMA_SOFTNIC_AGENT_ADDR',
    help: 'softnic: IPv4 address the agent listens on and puts in tokens (default 127.0.0.1); the gateway connects to it',
    apply: (v, o) => {
      if (!/^(\d{1,3})(\.\d{1,3}){3}$/.test(v) || v.split('.').some((p) => Number(p) > 255))
        return 'must be an IPv4 address';
      o.agentAddress = v;
      return undefined;
    },
  },
  {
    name: 'VGWRDMA_SOFTNIC_AGENT_PORT',
    help: 'softnic: agent TCP port (default 0 = ephemeral)',
    apply: int(0, 65535, (n, o) => {
      o.agentPort = n;
    }),
  },
  {
    name: 'VGWRDMA_SOFTNIC_DIRECT',
    help: 'softnic: allow a same-host gateway to use process_vm_readv/writev after proving access (1/0, default 1)',
    apply: (v, o) => {
      const s = v.toLowerCase();
      if (!TRUE.has(s) && !FALSE.has(s)) return 'must be 1/0, true/false, yes/no or on/off';
      o.allowDirect = TRUE.has(s);
      return undefined;
    },
  },
  {
    name: 'VGWRDMA_SOFTNIC_IO_TIMEOUT_MS',
    help: 'softnic: agent socket send/receive timeout in ms (default 10000)',
    apply: int(1, 3_600_000, (n, o) => {
      o.ioTimeoutMs = n;
    }),
  },
];

/** HostClient options from `env`; throws VGW_ERR_CUOBJ_INVALID_OPTION naming the variable on a bad value. */
export function hostOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>> = process.env,
): HostOptions {
  const out: HostOptions = {};
  // VGWRDMA_PROVIDER is applied first so an explicit 'softnic' beats the device's implied 'verbs'.
  const ordered = [...HOST_ENV_VARS].sort(
    (a, b) => Number(b.name === 'VGWRDMA_PROVIDER') - Number(a.name === 'VGWRDMA_PROVIDER'),
  );
  for (const v of ordered) {
    const raw = env[v.name];
    if (raw === undefined) continue;
    const error = v.apply(raw.trim(), out);
    if (error !== undefined)
      throw new CuObjError('VGW_ERR_CUOBJ_INVALID_OPTION', `${v.name}=${raw}: ${error}`);
  }
  return out;
}
