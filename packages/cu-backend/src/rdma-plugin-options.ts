// The options of rdmaPlugin(), declared once: each field's type and range, and, for the fields an
// operator sets, the command-line flag, environment variables, default and help text (metadata
// of @vgwrdma/cli-options). vgwrdma derives its --rdma-* flags from this schema; an embedder's
// object (plain JavaScript, or values read from a file) is checked by the same schema, so a bad
// field is reported by name ("rdmaPlugin: poolBufCount: ...") before any native resource exists.
import { availableParallelism } from 'node:os';
import { BYTE_SIZE_FORMS, byteSize, checkOptions, integer, option } from '@vgwrdma/cli-options';
import { z } from 'zod';
import { parseIpv4Cidr } from './agent-policy.js';
import type { CuServerConfig } from './open-cu-server.js';

/**
 * --pool-buf-count's default: one buffer per core, at least 4 and at most 16. An RDMA upload (a
 * PutObject or one part of a managed multipart upload) keeps about one core busy with its MD5,
 * so one buffer per core lets one client keep as many parts in flight as the host can hash;
 * more buffers would only queue behind the cores and pin memory (16 × 64 MiB = 1 GiB).
 */
export function defaultPoolBufCount(cores: number = availableParallelism()): number {
  return Math.min(16, Math.max(4, cores));
}

const IPV4_MESSAGE = 'must be an IPv4 address such as 127.0.0.1';
const ipv4 = z
  .string()
  .regex(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/, IPV4_MESSAGE)
  .refine((s) => s.split('.').every((o) => Number(o) <= 255), IPV4_MESSAGE);

/** A u64: a bigint, or as text in hex (0x...) or decimal. */
const u64 = z.union([z.bigint(), z.string()]).transform((value, ctx) => {
  const s = typeof value === 'string' ? value.trim() : '';
  const ok = typeof value === 'bigint' || /^0x[0-9a-f]{1,16}$/i.test(s) || /^\d{1,20}$/.test(s);
  const n = typeof value === 'bigint' ? value : ok ? BigInt(s) : -1n;
  if (n < 0n || n >= 1n << 64n) {
    ctx.addIssue({ code: 'custom', message: 'must be an unsigned 64-bit number, e.g. 0xffeeddcc' });
    return z.NEVER;
  }
  return n;
});

/** IPv4 CIDRs (a bare address is /32): a list, or as text separated by commas. */
const cidrList = z.union([z.array(z.string()).readonly(), z.string()]).transform((value, ctx) => {
  const items =
    typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '')
      : [...value];
  for (const [i, item] of items.entries()) {
    try {
      parseIpv4Cidr(item);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message, path: [i] });
      return z.NEVER;
    }
  }
  return items;
});

/** 1 or 2 channels. */
const lanes = integer(1, 2).transform((n) => n as 1 | 2);

/** Every rdmaPlugin option with its range; unknown keys are refused (a misspelt option is a bug). */
export const RDMA_PLUGIN_OPTIONS = z.strictObject({
  ip: option(ipv4, {
    flag: 'rdma-ip',
    env: ['VGW_RDMA_IP'],
    arg: 'IP',
    help: 'enable RDMA: local address of the RDMA transport (softnic: 127.0.0.1 serves clients on this host)',
  }).optional(),
  port: option(integer(1, 65_535), {
    flag: 'rdma-port',
    env: ['VGW_RDMA_PORT'],
    default: '19100',
    arg: 'PORT',
    help: 'RDMA port (cuobj transport; softnic only connects out to client agents)',
  }).optional(),
  transport: option(z.enum(['softnic', 'cuobj']), {
    flag: 'rdma-transport',
    env: ['VGW_RDMA_TRANSPORT'],
    default: 'softnic',
    arg: 'NAME',
    help: 'softnic (software NIC, any host) or cuobj (NVIDIA cuObject library + ConnectX NIC)',
  }).optional(),
  poolBufSize: option(byteSize(4096), {
    flag: 'pool-buf-size',
    env: ['VGW_POOL_BUF_SIZE'],
    default: '64MiB',
    arg: 'BYTES',
    help: `bytes per registered RDMA buffer, at least 4096: ${BYTE_SIZE_FORMS}; vgwrdma's old default of 1 GiB pins count × 1 GiB of memory, too much on small machines`,
  }).optional(),
  poolBufCount: option(integer(1, 1024), {
    flag: 'pool-buf-count',
    env: ['VGW_POOL_BUF_COUNT'],
    fallback: () => String(defaultPoolBufCount()),
    arg: 'N',
    help: 'number of registered RDMA buffers (concurrent RDMA requests); default one per core, 4 to 16 (a transfer keeps about one core busy hashing, so more only queue)',
  }).optional(),
  dcKey: option(u64, {
    flag: 'rdma-dc-key',
    env: ['VGW_RDMA_DC_KEY'],
    default: '0xffeeddcc',
    arg: 'KEY',
    help: 'DC access key presented to clients (hex or decimal)',
  }).optional(),
  numDcis: option(integer(1, 65_534), {
    flag: 'rdma-num-dcis',
    env: ['VGW_RDMA_NUM_DCIS'],
    default: '128',
    arg: 'N',
    help: 'RDMA channels (DC initiators; softnic worker threads)',
  }).optional(),
  cqDepth: option(integer(1, 1 << 20), {
    flag: 'rdma-cq-depth',
    env: ['VGW_RDMA_CQ_DEPTH'],
    default: '640',
    arg: 'N',
    help: 'completion queue depth (cuobj transport)',
  }).optional(),
  retryCount: option(integer(0, 7), {
    flag: 'rdma-retry-count',
    env: ['VGW_RDMA_RETRY_COUNT'],
    default: '7',
    arg: 'N',
    help: 'RDMA retry count, 0..7 (cuobj transport)',
  }).optional(),
  poolWaitMs: option(integer(0, 600_000), {
    flag: 'rdma-pool-wait-ms',
    env: ['VGW_RDMA_POOL_WAIT_MS'],
    default: '1000',
    arg: 'MS',
    help: 'longest wait for a free RDMA buffer; past it the request is declined (501, x-amz-rdma-reply 501)',
  }).optional(),
  getLanes: option(lanes, {
    flag: 'rdma-get-lanes',
    env: ['VGW_RDMA_GET_LANES'],
    default: '2',
    arg: 'N',
    help: 'channels one large RDMA GET may use at once, 1 or 2 (the second only while every free buffer keeps a free channel)',
  }).optional(),
  putLanes: option(lanes, {
    flag: 'rdma-put-lanes',
    env: ['VGW_RDMA_PUT_LANES'],
    default: '2',
    arg: 'N',
    help: 'channels one large RDMA PUT may READ on at once, 1 or 2 (the second only while every free buffer keeps a free channel)',
  }).optional(),
  directPrivileged: option(z.boolean(), {
    flag: 'rdma-direct-privileged',
    env: ['VGW_RDMA_DIRECT_PRIVILEGED'],
    default: false,
    help: 'softnic: allow the same-host direct path (process_vm_*) even when the gateway is more privileged than the client (root or CAP_SYS_PTRACE, another uid); off: such clients use TCP. Clients that change credentials (setuid exec) or are not dumpable are refused regardless',
  }).optional(),
  allowAgents: option(cidrList, {
    flag: 'rdma-allow-agents',
    env: ['VGW_RDMA_ALLOW_AGENTS'],
    arg: 'CIDR,...',
    help: "IPv4 networks whose RDMA agents any signed request may name (e.g. 10.0.0.0/8,192.168.1.7); by default a token must name an agent at the client's own address (else 403)",
  }).optional(),
  transferTimeoutMs: option(integer(1, 86_400_000), {
    flag: 'rdma-transfer-timeout',
    env: ['VGW_RDMA_TRANSFER_TIMEOUT'],
    default: '30000',
    arg: 'MS',
    help: 'deadline of one RDMA transfer: MS + its size at 50 MB/s; past it the transfer is abandoned (400 RequestTimeout, a PUT stores nothing) and its buffer comes back',
  }).optional(),
  maxPerAgent: option(integer(1, 1024), {
    flag: 'rdma-max-per-agent',
    env: ['VGW_RDMA_MAX_PER_AGENT'],
    arg: 'N',
    help: 'RDMA transfers one client agent (address:port) may run at once, default half the pool buffers (rounded up); beyond it requests are declined (501, x-amz-rdma-reply 501)',
  }).optional(),
  // Programs only (no flag): the vendor library's telemetry, transfer sizes, shim location.
  vendorDebug: z.boolean().optional(),
  maxTransferSize: integer(1).optional(),
  chunkSize: integer(1).optional(),
  shimDir: z.string().min(1).optional(),
  ioTimeoutMs: integer(1).optional(),
});

/** The pool buffer size a program gets when it names none: --pool-buf-size's default. */
export const DEFAULT_POOL_BUF_SIZE = 64 << 20;

/**
 * rdmaPlugin's options: the same fields as openCuServer's config, with the pool sizes optional
 * (`rdmaPlugin({ ip })` gets --pool-buf-size's and --pool-buf-count's defaults).
 */
export type RdmaPluginOptions = Omit<CuServerConfig, 'poolBufSize' | 'poolBufCount'> &
  Partial<Pick<CuServerConfig, 'poolBufSize' | 'poolBufCount'>>;

/** Validates `input` and fills the pool defaults; throws an InvalidArgumentError (VGW_ERR_INVALID_ARGUMENT) naming each bad field. */
export function parseRdmaPluginOptions(input: unknown): CuServerConfig {
  // zod leaves absent optional keys absent, so the output has no explicit `undefined`s.
  const data = checkOptions(RDMA_PLUGIN_OPTIONS, input, 'rdmaPlugin') as RdmaPluginOptions;
  return {
    ...data,
    poolBufSize: data.poolBufSize ?? DEFAULT_POOL_BUF_SIZE,
    poolBufCount: data.poolBufCount ?? defaultPoolBufCount(),
  };
}
