// Host-memory session configuration from the environment. The first four variables are the ones
// vgwrdma's host-memory client reads (RDMA device, HCA port, GID index, DC key); the VGWRDMA_SOFTNIC_*
// ones configure this project's software NIC agent. One schema (HOST_TRANSPORT_OPTIONS: each
// HostClient option with its variable and help, metadata of @vgwrdma/cli-options) drives parsing
// and the README. Explicit Session.open options win over the environment.

import { cliOptions, option } from '@vgwrdma/cli-options';
import type { HostClientOptions } from '@vgwrdma/rdma-ffi';
import { z } from 'zod';
import { CuObjError } from './errors.js';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type HostOptions = Mutable<Omit<HostClientOptions, 'shimDir'>>;

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off']);

/** An integer in min..max (a sign allowed: the GID index is -1 for automatic). */
const int = (min: number, max: number) =>
  z
    .string()
    .refine(
      (v) => /^-?\d+$/.test(v) && Number(v) >= min && Number(v) <= max,
      `must be an integer in ${min}..${max}`,
    )
    .transform(Number);

/** Every HostClient option a host session reads from the environment, in README order. */
export const HOST_TRANSPORT_OPTIONS = z.object({
  deviceName: option(z.string().min(1, 'must not be empty'), {
    env: ['VGWRDMA_RDMA_DEV'],
    help: "RDMA device for the verbs provider (e.g. mlx5_0); setting it selects provider 'verbs'",
  }).optional(),
  portNum: option(int(1, 255), {
    env: ['VGWRDMA_RDMA_PORT'],
    help: 'HCA port number for the verbs provider (default 1)',
  }).optional(),
  gidIndex: option(int(-1, 65535), {
    env: ['VGWRDMA_GID_INDEX'],
    help: 'GID index for the verbs provider (default -1 = automatic: a routable RoCE v2 GID, then IPv4-mapped v2, then v1)',
  }).optional(),
  dcKey: option(
    z
      .string()
      .regex(/^(0x[0-9a-f]{1,16}|\d{1,20})$/i, 'must be a 64-bit number, hex (0x...) or decimal')
      .transform((v) => BigInt(v))
      .refine((key) => key < 2n ** 64n, 'must fit in 64 bits'),
    {
      env: ['VGWRDMA_DC_KEY'],
      help: 'DC access key the gateway must present, hex (0x...) or decimal; default 0xffeeddcc',
    },
  ).optional(),
  provider: option(
    z.enum(['softnic', 'verbs', 'cuobj'], { message: "must be 'softnic', 'verbs' or 'cuobj'" }),
    {
      env: ['VGWRDMA_PROVIDER'],
      help: "'softnic' (default), 'verbs' (libibverbs DC target) or 'cuobj' (NVIDIA libcuobjclient)",
    },
  ).optional(),
  agentAddress: option(
    z
      .string()
      .refine(
        (v) => /^(\d{1,3})(\.\d{1,3}){3}$/.test(v) && v.split('.').every((p) => Number(p) <= 255),
        'must be an IPv4 address',
      ),
    {
      env: ['VGWRDMA_SOFTNIC_AGENT_ADDR'],
      help: 'softnic: IPv4 address the agent listens on and puts in tokens (default 127.0.0.1); the gateway connects to it',
    },
  ).optional(),
  agentPort: option(int(0, 65535), {
    env: ['VGWRDMA_SOFTNIC_AGENT_PORT'],
    help: 'softnic: agent TCP port (default 0 = ephemeral)',
  }).optional(),
  allowDirect: option(
    z
      .string()
      .transform((v) => v.toLowerCase())
      .refine((s) => TRUE.has(s) || FALSE.has(s), 'must be 1/0, true/false, yes/no or on/off')
      .transform((s) => TRUE.has(s)),
    {
      env: ['VGWRDMA_SOFTNIC_DIRECT'],
      help: 'softnic: allow a same-host gateway to use process_vm_readv/writev after proving access (1/0, default 1)',
    },
  ).optional(),
  ioTimeoutMs: option(int(1, 3_600_000), {
    env: ['VGWRDMA_SOFTNIC_IO_TIMEOUT_MS'],
    help: 'softnic: agent socket send/receive timeout in ms (default 10000)',
  }).optional(),
});

interface EnvVar {
  readonly name: string;
  readonly help: string;
  /** Applies the raw value, or returns an error text. */
  readonly apply: (value: string, into: HostOptions) => string | undefined;
}

/** Every environment variable a host session reads, in README order (derived from the schema). */
export const HOST_ENV_VARS: readonly EnvVar[] = cliOptions(HOST_TRANSPORT_OPTIONS).map((o) => ({
  name: o.env[0] ?? o.key,
  help: o.help,
  apply: (value, into) => {
    const parsed = o.schema.safeParse(value);
    if (!parsed.success) return parsed.error.issues[0]?.message ?? 'invalid value';
    (into as Record<string, unknown>)[o.key] = parsed.data;
    // A device implies the verbs provider unless one was chosen.
    if (o.key === 'deviceName') into.provider ??= 'verbs';
    return undefined;
  },
}));

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
