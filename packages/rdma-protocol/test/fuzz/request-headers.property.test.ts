// Property tests of the RDMA request headers (x-amz-rdma-token, the legacy X-CuObj-* trio,
// x-amz-rdma-agent, the body headers): every combination of valid, damaged and random values
// gives no descriptor, a well-formed descriptor, or a refusal — 400 InvalidArgument, or 501
// NotImplemented for RC tokens — and never throws. Runs: FUZZ_RUNS (CI 300, stress 10^6).
import { fuzzSettings, tokenFieldsArb, U64_MAX as U64 } from '@vgwrdma/fuzz-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LEGACY_HEADERS } from '../../src/header-names.js';
import { parseRdmaHeaders } from '../../src/request-headers.js';
import { formatRdmaToken, parseRdmaToken } from '../../src/token-codec.js';

const { timeout: TIMEOUT, params: FUZZ } = fuzzSettings(300, { msPerRun: 1 });

const tokenArb = tokenFieldsArb({ lid: fc.constant(0), gidPresent: fc.constant(true) }).map((f) =>
  formatRdmaToken(f),
);
const damaged = fc
  .tuple(tokenArb, fc.nat(), fc.constantFrom('', 'g', 'A', ':', ';', '0', ' ', '\u00e9'))
  .map(([t, at, ch]) => t.slice(0, at % 90) + ch + t.slice((at % 90) + 1));
const tokenish = fc.oneof(
  tokenArb,
  damaged,
  tokenArb.map((t) => `rc:${t}`),
  tokenArb.map((t) => `${t}:0000000000001000:0000000000000010;`),
  fc.string({ maxLength: 120 }),
);
const decimal = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '-1',
    '+1',
    '1.5',
    '1e3',
    ' 1',
    '',
    '18446744073709551615',
    '18446744073709551616',
    '9007199254740993',
    '0x10',
  ),
  fc.bigInt({ min: 0n, max: 1n << 70n }).map(String),
);
const headersArb = fc.record(
  {
    'x-amz-rdma-token': tokenish,
    'x-amz-rdma-agent': fc.constantFrom('cuobj', 'CUOBJ', '', 'nixl'),
    [LEGACY_HEADERS.descriptor]: tokenish,
    [LEGACY_HEADERS.contentLength]: decimal,
    [LEGACY_HEADERS.remoteStart]: decimal,
    'content-length': fc.constantFrom('0', '1', ' 0', '00'),
    'x-amz-decoded-content-length': fc.constantFrom('0', '5'),
    'transfer-encoding': fc.constant('chunked'),
  },
  { requiredKeys: [] },
);

describe('RDMA request headers (property)', () => {
  it('none, a well-formed descriptor, or 400/501 — never a throw', { timeout: TIMEOUT }, () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(headersArb, (headers) => {
        const h = headers as Record<string, string>;
        const outcome = parseRdmaHeaders((name) => h[name]);
        const label = outcome.kind === 'refused' ? outcome.refusal.code : outcome.kind;
        seen.set(label, (seen.get(label) ?? 0) + 1);
        if (outcome.kind === 'refused') {
          const { code, status } = outcome.refusal;
          expect([`${code} ${status}`]).toContainEqual(
            expect.stringMatching(/^(InvalidArgument 400|NotImplemented 501)$/),
          );
        } else if (outcome.kind === 'rdma') {
          const d = outcome.descriptor;
          // the base token re-parses to the same fields: the descriptor holds what the header said
          const again = parseRdmaToken(d.token.base);
          expect({ ...again, gid: [...again.gid] }).toMatchObject({
            addr: d.token.addr,
            size: d.token.size,
            rkey: d.token.rkey,
            dctn: d.token.dctn,
            gid: [...d.token.gid],
          });
          expect(Number.isSafeInteger(d.token.length) && d.token.length > 0).toBe(true);
          expect(d.token.remoteAddr >= 0n && d.token.remoteAddr + BigInt(d.token.length) <= U64 + 1n).toBe(
            true,
          );
          expect(['token', 'legacy']).toContain(d.scheme);
          if (d.scheme === 'legacy') {
            expect(d.token.length).toBe(Number(h[LEGACY_HEADERS.contentLength]));
            const start = BigInt(h[LEGACY_HEADERS.remoteStart] ?? '');
            expect(d.token.remoteAddr).toBe(start === 0n ? d.token.addr : start);
          }
        } else {
          expect(h['x-amz-rdma-token'] ?? h[LEGACY_HEADERS.descriptor]).toBeUndefined();
        }
      }),
      // fixed examples first, so every outcome is reached at any size
      {
        ...FUZZ,
        examples: [
          [{}],
          [{ 'x-amz-rdma-token': 'rc:0000' }],
          [
            {
              'x-amz-rdma-token':
                '000073967e5ff000:00400000:01f2e973:0000:007a03:1:00000000000000000000ffff0f0f0fdf',
            },
          ],
          [{ 'x-amz-rdma-token': 'x' }],
        ],
      },
    );
    for (const label of ['none', 'rdma', 'InvalidArgument', 'NotImplemented'])
      expect(seen.get(label) ?? 0).toBeGreaterThan(0);
  });
});
