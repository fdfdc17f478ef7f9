import { isS3Error } from '@vgwrdma/backend-contract';
import {
  formatRdmaToken,
  ipv4MappedGid,
  MAX_UPLOAD_SIZE,
  parseRdmaToken,
  type RdmaDescriptor,
} from '@vgwrdma/rdma-protocol';
import { describe, expect, it } from 'vitest';
import {
  AgentPolicy,
  agentOf,
  normalisePeer,
  parseAgentAllowList,
  parseIpv4Cidr,
} from '../src/agent-policy.js';
import { AgentSlots } from '../src/agent-slots.js';
import { transferDeadlineMs, uploadTooLarge } from '../src/transfer-limits.js';

function descriptor(ip: string | undefined, port = 4000): RdmaDescriptor {
  const token = formatRdmaToken({
    addr: 0x1000n,
    size: 64,
    rkey: 1,
    lid: 0,
    dctn: port,
    gidPresent: ip !== undefined,
    gid: ip === undefined ? new Uint8Array(16) : ipv4MappedGid(ip),
  });
  return { token: parseRdmaToken(token), scheme: 'token' };
}

describe('AgentPolicy', () => {
  it('parses IPv4 CIDRs and bare addresses, and refuses anything else', () => {
    expect(parseIpv4Cidr('10.1.2.3/8')).toEqual({ base: 0x0a00_0000, bits: 8 });
    expect(parseIpv4Cidr('192.168.1.7')).toEqual({ base: 0xc0a8_0107, bits: 32 });
    expect(parseIpv4Cidr('0.0.0.0/0')).toEqual({ base: 0, bits: 0 });
    expect(parseAgentAllowList(' 10.0.0.0/8, ,127.0.0.2 ')).toHaveLength(2);
    for (const bad of ['10.0.0.0/33', '10.0.0/8', '256.0.0.1', '::1', '10.0.0.0/8/8', 'host', '1.2.3.4/'])
      expect(() => parseIpv4Cidr(bad), bad).toThrow(RangeError);
  });

  it('normalises IPv4-mapped peers', () => {
    expect(normalisePeer('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalisePeer('::FFFF:10.0.0.5')).toBe('10.0.0.5');
    expect(normalisePeer('127.0.0.1')).toBe('127.0.0.1');
    expect(normalisePeer('::1')).toBe('::1');
  });

  it("allows only the peer's own address unless an allowed network holds the agent", () => {
    const table: [string | undefined, string | undefined, string[], boolean][] = [
      ['127.0.0.1', '127.0.0.1', [], true],
      ['127.0.0.1', '::ffff:127.0.0.1', [], true],
      ['127.0.0.2', '127.0.0.1', [], false],
      ['127.0.0.2', '127.0.0.1', ['127.0.0.2/32'], true],
      ['10.9.8.7', '192.168.0.1', ['10.0.0.0/8'], true],
      ['11.0.0.1', '192.168.0.1', ['10.0.0.0/8'], false],
      ['10.0.0.1', undefined, [], false],
      ['10.0.0.1', '::1', [], false],
      [undefined, '127.0.0.1', ['0.0.0.0/0'], false], // no IPv4-mapped GID: never dialled
    ];
    for (const [agent, peer, allow, ok] of table) {
      const refusal = new AgentPolicy(allow).check(agentOf(descriptor(agent)), peer);
      expect(refusal === undefined, `${agent} from ${peer} with [${allow}]`).toBe(ok);
      if (refusal) expect(isS3Error(refusal) && refusal.code === 'AccessDenied' && refusal.status).toBe(403);
    }
  });
});

describe('AgentSlots', () => {
  const a = { host: '127.0.0.1', port: 1 };
  const b = { host: '127.0.0.1', port: 2 };

  it('caps each agent, hands a released slot to the oldest waiter, and times a wait out', async () => {
    const slots = new AgentSlots(1);
    const first = await slots.take(a, { timeoutMs: 0 });
    expect(first).toBeTypeOf('function');
    expect(await slots.take(a, { timeoutMs: 0 })).toBeUndefined(); // at its cap, no wait
    expect(await slots.take(b, { timeoutMs: 0 })).toBeTypeOf('function'); // another agent is not
    const waiting = slots.take(a, { timeoutMs: 60_000 });
    const later = slots.take(a, { timeoutMs: 60_000 });
    first?.();
    first?.(); // idempotent: one slot only
    const second = await waiting;
    expect(second).toBeTypeOf('function');
    second?.();
    const third = await later;
    expect(third).toBeTypeOf('function');
    expect(await slots.take(a, { timeoutMs: 20 })).toBeUndefined(); // waited, none came
    third?.();
    expect(slots.inUse).toBe(1); // b's
  });

  it('ends a wait when the request goes away', async () => {
    const slots = new AgentSlots(1);
    await slots.take(a, { timeoutMs: 0 });
    const ac = new AbortController();
    const wait = slots.take(a, { timeoutMs: 60_000, signal: ac.signal });
    ac.abort(new Error('gone'));
    await expect(wait).rejects.toThrow('gone');
  });
});

describe('transfer limits', () => {
  it('refuses uploads over 5 GiB with EntityTooLarge', () => {
    expect(uploadTooLarge(MAX_UPLOAD_SIZE)).toBeUndefined();
    expect(uploadTooLarge(MAX_UPLOAD_SIZE + 1)?.code).toBe('EntityTooLarge');
  });

  it('derives the deadline from the base and the size at 50 MB/s', () => {
    expect(transferDeadlineMs(0)).toBe(30_000);
    expect(transferDeadlineMs(5_000_000_000)).toBe(130_000);
    expect(transferDeadlineMs(50_000_000, 400)).toBe(1400);
  });
});
