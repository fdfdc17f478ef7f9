// parseRdmaHeaders on its own (no HTTP framework): each header case gives the descriptor or the
// typed refusal docs/protocol.md says, and the descriptor's token is the transfer's window.
import { describe, expect, it } from 'vitest';
import { LEGACY_HEADERS, TOKEN_HEADER } from '../src/header-names.js';
import { parseRdmaHeaders } from '../src/request-headers.js';
import { formatRdmaToken } from '../src/token-codec.js';

const SAMPLE = '000073967e5ff000:00400000:01f2e973:0000:007a03:1:00000000000000000000ffff0f0f0fdf';
const ADDR = 0x0000_7396_7e5f_f000n;
const parse = (h: Record<string, string>, transport?: 'softnic' | 'cuobj') =>
  parseRdmaHeaders((name) => h[name], transport === undefined ? {} : { transport });

describe('parseRdmaHeaders', () => {
  it('no RDMA header: none (the agent alone is no RDMA request)', () => {
    expect(parse({})).toEqual({ kind: 'none' });
    expect(parse({ 'x-amz-rdma-agent': 'cuobj' })).toEqual({ kind: 'none' });
  });

  it('a token: the descriptor carries it parsed, its window being the token field 1 / field 2', () => {
    const r = parse({ [TOKEN_HEADER]: SAMPLE, 'x-amz-rdma-agent': 'cuobj' });
    if (r.kind !== 'rdma') throw new Error(`expected a descriptor, got ${r.kind}`);
    expect(r.descriptor).toMatchObject({ scheme: 'token', agent: 'cuobj' });
    expect(r.descriptor.token).toMatchObject({
      base: SAMPLE,
      remoteAddr: ADDR,
      length: 0x40_0000,
      rkey: 0x01f2_e973,
    });
  });

  it('the override form: the window is the suffix', () => {
    const r = parse({ [TOKEN_HEADER]: `${SAMPLE}:00007f0000001000:0000000000002000;` });
    expect(r.kind === 'rdma' && r.descriptor.token).toMatchObject({
      remoteAddr: 0x7f00_0000_1000n,
      length: 0x2000,
    });
  });

  it('the legacy trio wins over a token, and its start and length become the window', () => {
    const other = formatRdmaToken({
      addr: 1n,
      size: 1,
      rkey: 2,
      lid: 0,
      dctn: 3,
      gidPresent: false,
      gid: new Uint8Array(16),
    });
    const r = parse({
      [TOKEN_HEADER]: other,
      [LEGACY_HEADERS.descriptor]: SAMPLE,
      [LEGACY_HEADERS.contentLength]: '4096',
      [LEGACY_HEADERS.remoteStart]: String(ADDR + 100n),
    });
    if (r.kind !== 'rdma') throw new Error(`expected a descriptor, got ${r.kind}`);
    expect(r.descriptor.scheme).toBe('legacy');
    expect(r.descriptor.token).toMatchObject({ base: SAMPLE, remoteAddr: ADDR + 100n, length: 4096 });
    expect(r.descriptor.token).toMatchObject({ overrideAddr: ADDR + 100n, overrideSize: 4096n });
  });

  it('refusals are values: code, status and a message naming what is wrong', () => {
    const cases: [Record<string, string>, string, number, RegExp][] = [
      [{ [TOKEN_HEADER]: 'x' }, 'InvalidArgument', 400, /Invalid x-amz-rdma-token/],
      [{ [TOKEN_HEADER]: 'rc:0000' }, 'NotImplemented', 501, /RC-style/],
      [
        { [TOKEN_HEADER]: SAMPLE, 'x-amz-rdma-agent': 'noobaa' },
        'InvalidArgument',
        400,
        /x-amz-rdma-agent: noobaa/,
      ],
      [{ [TOKEN_HEADER]: SAMPLE, 'content-length': '5' }, 'InvalidArgument', 400, /empty body/],
      [{ [LEGACY_HEADERS.descriptor]: SAMPLE }, 'InvalidArgument', 400, /go together/],
      [
        {
          [LEGACY_HEADERS.descriptor]: SAMPLE,
          [LEGACY_HEADERS.contentLength]: '0',
          [LEGACY_HEADERS.remoteStart]: '1',
        },
        'InvalidArgument',
        400,
        /Content-Length must be a positive/,
      ],
      [
        {
          [LEGACY_HEADERS.descriptor]: SAMPLE,
          [LEGACY_HEADERS.contentLength]: '2',
          [LEGACY_HEADERS.remoteStart]: '18446744073709551615',
        },
        'InvalidArgument',
        400,
        /wraps past the end/,
      ],
    ];
    for (const [headers, code, status, message] of cases) {
      const r = parse(headers);
      expect(r, JSON.stringify(headers)).toEqual({
        kind: 'refused',
        refusal: { code, status, message: expect.stringMatching(message) },
      });
    }
  });

  it('softnic: a DCTN above 65535 is no TCP port (refused); on cuobj it is a DC target number', () => {
    const wide = formatRdmaToken({
      addr: ADDR,
      size: 16,
      rkey: 1,
      lid: 0,
      dctn: 0x1_0000,
      gidPresent: true,
      gid: new Uint8Array(16),
    });
    expect(parse({ [TOKEN_HEADER]: wide })).toMatchObject({
      kind: 'refused',
      refusal: { status: 400, message: expect.stringMatching(/DCTN/) },
    });
    expect(parse({ [TOKEN_HEADER]: wide }, 'cuobj').kind).toBe('rdma');
  });
});
