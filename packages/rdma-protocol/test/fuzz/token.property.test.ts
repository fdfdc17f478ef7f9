// Property tests of the DC v1 token codec on its own (the comparison with the C codec is
// rdma-ffi's test/fuzz/token-vs-c.property.test.ts): format → parse is the identity, a window
// set with withWindow is what the token then says, and no string makes the parser throw.
// Runs: FUZZ_RUNS (CI default 300; stress runs set more).

import { fuzzSettings, tokenFieldsArb, U64_MAX as U64 } from '@vgwrdma/fuzz-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyRdmaToken, formatRdmaToken, tryParseRdmaToken, withWindow } from '../../src/token-codec.js';
import type { DcTokenFields } from '../../src/token-types.js';

const { timeout: TIMEOUT, params: OPTIONS } = fuzzSettings(300, { ciSeed: 20261201, msPerRun: 2 });

const fieldsArb: fc.Arbitrary<DcTokenFields> = tokenFieldsArb();
const overrideArb = fc.option(
  fc.record({
    addr: fc.bigInt({ min: 0n, max: U64 }),
    size: fc.bigInt({ min: 0n, max: BigInt(Number.MAX_SAFE_INTEGER) }),
  }),
  { nil: undefined },
);

describe('DC v1 token codec (property)', () => {
  it('format → parse gives the fields back, with the override applied', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(fieldsArb, overrideArb, fc.boolean(), (f, override, semicolon) => {
        const s = formatRdmaToken(f, override ? { override, semicolon } : {});
        const r = tryParseRdmaToken(s);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        const t = r.token;
        expect({ ...t, gid: [...t.gid] }).toMatchObject({ ...f, gid: [...f.gid] });
        expect(t.remoteAddr).toBe(override && override.addr !== 0n ? override.addr : f.addr);
        expect(t.length).toBe(override && override.size !== 0n ? Number(override.size) : f.size);
        expect(classifyRdmaToken(s)).toBe(override ? 'dc-v1-override' : 'dc-v1');
      }),
      OPTIONS,
    );
  });

  it('withWindow sets exactly the window, as an override suffix would', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fieldsArb,
        fc.bigInt({ min: 0n, max: U64 }),
        fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
        (f, addr, size) => {
          const base = tryParseRdmaToken(formatRdmaToken(f));
          if (!base.ok) throw new Error('a formatted token must parse');
          const w = withWindow(base.token, addr, size);
          const viaSuffix = tryParseRdmaToken(formatRdmaToken(f, { override: { addr, size: BigInt(size) } }));
          if (!viaSuffix.ok) throw new Error('a formatted override must parse');
          expect({ remoteAddr: w.remoteAddr, length: w.length, base: w.base }).toEqual({
            remoteAddr: viaSuffix.token.remoteAddr,
            length: viaSuffix.token.length,
            base: viaSuffix.token.base,
          });
        },
      ),
      OPTIONS,
    );
  });

  it('never throws, whatever the string', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (s) => {
        const r = tryParseRdmaToken(s);
        if (r.ok) expect(r.token.base).toMatch(/^[0-9a-f:]{81}$/);
        expect(['dc-v1', 'dc-v1-override', 'rc', 'malformed']).toContain(classifyRdmaToken(s));
      }),
      OPTIONS,
    );
  });
});
