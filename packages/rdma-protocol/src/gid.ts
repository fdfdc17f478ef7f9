// The GID field as softnic uses it: an IPv4-mapped IPv6 address (::ffff:a.b.c.d) naming the
// client agent, whose TCP port travels in the DCTN field (docs/protocol.md, softnic tokens).

import { InvalidArgumentError } from '@vgwrdma/errors';
import type { DcTokenFields } from './token-types.js';

const MAPPED_PREFIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] as const;

/** The 16-byte IPv4-mapped GID for a dotted-quad address. Throws on anything else. */
export function ipv4MappedGid(ipv4: string): Uint8Array {
  const parts = ipv4.split('.');
  const octets = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  if (octets.length !== 4 || octets.some((o) => !(o >= 0 && o <= 255))) {
    throw new InvalidArgumentError(`not an IPv4 address: ${ipv4}`);
  }
  return Uint8Array.from([...MAPPED_PREFIX, ...octets]);
}

/** The dotted-quad address in an IPv4-mapped GID, or undefined when the GID is not one. */
export function gidToIpv4(gid: Uint8Array): string | undefined {
  if (gid.length !== 16 || MAPPED_PREFIX.some((b, i) => gid[i] !== b)) return undefined;
  return `${gid[12]}.${gid[13]}.${gid[14]}.${gid[15]}`;
}

/** Where a softnic token's agent listens: GID → host, DCTN → port. Undefined when not IPv4-mapped. */
export function softnicEndpoint(t: DcTokenFields): { host: string; port: number } | undefined {
  const host = t.gidPresent ? gidToIpv4(t.gid) : undefined;
  return host === undefined ? undefined : { host, port: t.dctn };
}
