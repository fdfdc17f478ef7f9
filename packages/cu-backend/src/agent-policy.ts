// Which agent a request may make the gateway connect to (docs/protocol.md "trust rules"): the agent a
// token names — its IPv4-mapped GID — must be the HTTP peer's own address, unless the address
// lies in one of the operator's allowed IPv4 CIDRs (--rdma-allow-agents). Decided before any
// connection is made, so a token cannot aim the gateway (and its DC key) at a third host.

import { S3Error } from '@vgwrdma/backend-contract';
import { type RdmaDescriptor, softnicEndpoint } from '@vgwrdma/rdma-protocol';

/** An IPv4 network: `base` (host order, masked) and prefix length. */
export interface Ipv4Cidr {
  readonly base: number;
  readonly bits: number;
}

/** The agent a descriptor names: its IPv4 address and port (DCTN), when the GID is IPv4-mapped. */
export interface AgentEndpoint {
  readonly host: string;
  readonly port: number;
}

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The address as a host-order u32, or undefined when it is not a dotted quad. */
function ipv4ToInt(ip: string): number | undefined {
  const m = DOTTED.exec(ip);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  return octets.reduce((acc, o) => acc * 256 + o, 0);
}

/** A peer address as a dotted quad: '::ffff:127.0.0.1' → '127.0.0.1'; IPv6 stays as it is. */
export function normalisePeer(address: string): string {
  return MAPPED.exec(address)?.[1] ?? address;
}

const mask = (bits: number) => (bits === 0 ? 0 : (0xffff_ffff << (32 - bits)) >>> 0);

/** Parses 'a.b.c.d/n' (or a bare address, /32). Throws RangeError with a readable reason. */
export function parseIpv4Cidr(text: string): Ipv4Cidr {
  const [addr = '', prefix, extra] = text.trim().split('/');
  const ip = ipv4ToInt(addr);
  const bits = prefix === undefined ? 32 : /^\d{1,2}$/.test(prefix) ? Number(prefix) : Number.NaN;
  if (ip === undefined || extra !== undefined || !(bits >= 0 && bits <= 32))
    throw new RangeError(`not an IPv4 CIDR: '${text}' (expected e.g. 10.0.0.0/8 or 192.168.1.7)`);
  return { base: (ip & mask(bits)) >>> 0, bits };
}

/** Parses a comma-separated list of IPv4 CIDRs ('' = none). */
export function parseAgentAllowList(text: string): Ipv4Cidr[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(parseIpv4Cidr);
}

/** The endpoint a descriptor's token names, or undefined when its GID is not IPv4-mapped. */
export function agentOf(d: RdmaDescriptor): AgentEndpoint | undefined {
  return softnicEndpoint(d.token);
}

const refused = (why: string) =>
  S3Error.custom(
    'AccessDenied',
    `RDMA refused: ${why}; the agent must run on the requesting host (or the operator allows its network with --rdma-allow-agents)`,
  );

export class AgentPolicy {
  private readonly allowed: readonly Ipv4Cidr[];

  constructor(allowed: readonly (Ipv4Cidr | string)[] = []) {
    this.allowed = allowed.map((c) => (typeof c === 'string' ? parseIpv4Cidr(c) : c));
  }

  /** Whether `host` lies in one of the allowed networks. */
  private inAllowList(host: string): boolean {
    const ip = ipv4ToInt(host);
    return ip !== undefined && this.allowed.some((c) => (ip & mask(c.bits)) >>> 0 === c.base);
  }

  /** Undefined when the gateway may connect to `agent` for a request from `peer`; else the 403. */
  check(agent: AgentEndpoint | undefined, peer: string | undefined): S3Error | undefined {
    if (!agent) return refused('the token does not name an IPv4 agent address');
    if (peer !== undefined && normalisePeer(peer) === agent.host) return undefined;
    if (this.inAllowList(agent.host)) return undefined;
    return refused(`the token names agent ${agent.host}, which is not the address of this request's client`);
  }
}
