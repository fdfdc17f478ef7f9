// The --rdma-* flags (vgwrdma's names and environment variables): --rdma-ip turns RDMA on — the
// posix backend is wrapped in CuServer and cu-middleware parses the RDMA headers. Rows follow the
// same FlagSpec shape and are spread into GLOBAL_FLAGS (flags.ts), so parsing, env fallback,
// validation and --help treat them like every other global flag.
import { availableParallelism } from 'node:os';
import { parseIpv4Cidr } from '@vgwrdma/cu-backend';
import { BYTE_SIZE_FORMS, ByteSizeError, parseByteSize } from '@vgwrdma/rdma-protocol';
import { z } from 'zod';
import type { FlagSpec } from './flags.js';

/**
 * --pool-buf-count's default: one buffer per core, at least 4 and at most 16. An RDMA upload (a
 * PutObject or one part of a managed multipart upload) keeps about one core busy with its MD5,
 * so one buffer per core lets one client keep as many parts in flight as the host can hash;
 * more buffers would only queue behind the cores and pin memory (16 × 64 MiB = 1 GiB).
 */
export function defaultPoolBufCount(cores: number = availableParallelism()): number {
  return Math.min(16, Math.max(4, cores));
}

const intIn = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a decimal integer')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be ${min}..${max}`);

const ipv4 = z
  .string()
  .regex(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/, 'must be an IPv4 address such as 127.0.0.1')
  .refine((s) => s.split('.').every((o) => Number(o) <= 255), 'must be an IPv4 address such as 127.0.0.1');

/** Bytes, by the one rule of `parseByteSize` (rdma-protocol): 67108864, 64MiB, 64M, 64MB, 1GiB. */
const byteSize = (min: number) =>
  z.string().transform((value, ctx) => {
    try {
      return parseByteSize(value, { min });
    } catch (error) {
      if (!(error instanceof ByteSizeError)) throw error;
      ctx.addIssue({ code: 'custom', message: error.message });
      return z.NEVER;
    }
  });

/** A u64 in hex (0x...) or decimal. */
const u64 = z.string().transform((value, ctx) => {
  const s = value.trim();
  const ok = /^0x[0-9a-f]{1,16}$/i.test(s) || /^\d{1,20}$/.test(s);
  const n = ok ? BigInt(s) : -1n;
  if (n < 0n || n >= 1n << 64n) {
    ctx.addIssue({ code: 'custom', message: 'must be an unsigned 64-bit number, e.g. 0xffeeddcc' });
    return z.NEVER;
  }
  return n;
});

/** Comma-separated IPv4 CIDRs (a bare address is /32): the networks whose agents any client may name. */
const cidrList = z.string().transform((value, ctx) => {
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const item of items) {
    try {
      parseIpv4Cidr(item);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  }
  return items;
});

export const RDMA_FLAGS = [
  {
    name: 'rdma-ip',
    type: 'string',
    env: ['VGW_RDMA_IP'],
    schema: ipv4,
    arg: 'IP',
    help: 'enable RDMA: local address of the RDMA transport (softnic: 127.0.0.1 serves clients on this host)',
  },
  {
    name: 'rdma-port',
    type: 'string',
    env: ['VGW_RDMA_PORT'],
    schema: intIn(1, 65_535),
    default: '19100',
    arg: 'PORT',
    help: 'RDMA port (cuobj transport; softnic only connects out to client agents)',
  },
  {
    name: 'rdma-transport',
    type: 'string',
    env: ['VGW_RDMA_TRANSPORT'],
    schema: z.enum(['softnic', 'cuobj']),
    default: 'softnic',
    arg: 'NAME',
    help: 'softnic (software NIC, any host) or cuobj (NVIDIA cuObject library + ConnectX NIC)',
  },
  {
    name: 'pool-buf-size',
    type: 'string',
    env: ['VGW_POOL_BUF_SIZE'],
    schema: byteSize(4096),
    default: '64MiB',
    arg: 'BYTES',
    help: `bytes per registered RDMA buffer, at least 4096: ${BYTE_SIZE_FORMS}; vgwrdma's old default of 1 GiB pins count × 1 GiB of memory, too much on small machines`,
  },
  {
    name: 'pool-buf-count',
    type: 'string',
    env: ['VGW_POOL_BUF_COUNT'],
    schema: intIn(1, 1024),
    arg: 'N',
    help: 'number of registered RDMA buffers (concurrent RDMA requests); default one per core, 4 to 16 (a transfer keeps about one core busy hashing, so more only queue)',
  },
  {
    name: 'rdma-dc-key',
    type: 'string',
    env: ['VGW_RDMA_DC_KEY'],
    schema: u64,
    default: '0xffeeddcc',
    arg: 'KEY',
    help: 'DC access key presented to clients (hex or decimal)',
  },
  {
    name: 'rdma-num-dcis',
    type: 'string',
    env: ['VGW_RDMA_NUM_DCIS'],
    schema: intIn(1, 65_534),
    default: '128',
    arg: 'N',
    help: 'RDMA channels (DC initiators; softnic worker threads)',
  },
  {
    name: 'rdma-cq-depth',
    type: 'string',
    env: ['VGW_RDMA_CQ_DEPTH'],
    schema: intIn(1, 1 << 20),
    default: '640',
    arg: 'N',
    help: 'completion queue depth (cuobj transport)',
  },
  {
    name: 'rdma-retry-count',
    type: 'string',
    env: ['VGW_RDMA_RETRY_COUNT'],
    schema: intIn(0, 7),
    default: '7',
    arg: 'N',
    help: 'RDMA retry count, 0..7 (cuobj transport)',
  },
  {
    name: 'rdma-pool-wait-ms',
    type: 'string',
    env: ['VGW_RDMA_POOL_WAIT_MS'],
    schema: intIn(0, 600_000),
    default: '1000',
    arg: 'MS',
    help: 'longest wait for a free RDMA buffer; past it the request is declined (501, x-amz-rdma-reply 501)',
  },
  {
    name: 'rdma-get-lanes',
    type: 'string',
    env: ['VGW_RDMA_GET_LANES'],
    schema: intIn(1, 2),
    default: '2',
    arg: 'N',
    help: 'channels one large RDMA GET may use at once, 1 or 2 (the second only while every free buffer keeps a free channel)',
  },
  {
    name: 'rdma-put-lanes',
    type: 'string',
    env: ['VGW_RDMA_PUT_LANES'],
    schema: intIn(1, 2),
    default: '2',
    arg: 'N',
    help: 'channels one large RDMA PUT may READ on at once, 1 or 2 (the second only while every free buffer keeps a free channel)',
  },
  {
    name: 'rdma-direct-privileged',
    type: 'boolean',
    env: ['VGW_RDMA_DIRECT_PRIVILEGED'],
    schema: z.boolean(),
    default: false,
    help: 'softnic: allow the same-host direct path (process_vm_*) even when the gateway is more privileged than the client (root or CAP_SYS_PTRACE, another uid); off: such clients use TCP. Clients that change credentials (setuid exec) or are not dumpable are refused regardless',
  },
  {
    name: 'rdma-allow-agents',
    type: 'string',
    env: ['VGW_RDMA_ALLOW_AGENTS'],
    schema: cidrList,
    arg: 'CIDR,...',
    help: "IPv4 networks whose RDMA agents any signed request may name (e.g. 10.0.0.0/8,192.168.1.7); by default a token must name an agent at the client's own address (else 403)",
  },
  {
    name: 'rdma-transfer-timeout',
    type: 'string',
    env: ['VGW_RDMA_TRANSFER_TIMEOUT'],
    schema: intIn(1, 86_400_000),
    default: '30000',
    arg: 'MS',
    help: 'deadline of one RDMA transfer: MS + its size at 50 MB/s; past it the transfer is abandoned (400 RequestTimeout, a PUT stores nothing) and its buffer comes back',
  },
  {
    name: 'rdma-max-per-agent',
    type: 'string',
    env: ['VGW_RDMA_MAX_PER_AGENT'],
    schema: intIn(1, 1024),
    arg: 'N',
    help: 'RDMA transfers one client agent (address:port) may run at once, default half the pool buffers (rounded up); beyond it requests are declined (501, x-amz-rdma-reply 501)',
  },
] as const satisfies readonly FlagSpec[];
