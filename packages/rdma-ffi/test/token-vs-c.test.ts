// The TypeScript token codec against the C one (cuobj_token_parse/classify/format through
// koffi): same verdict on every input of a large mutated corpus, same fields when both accept,
// and byte-identical formatting.

import {
  classifyRdmaToken,
  type DcTokenFields,
  formatRdmaToken,
  ipv4MappedGid,
  tryParseRdmaToken,
} from '@vgwrdma/rdma-protocol';
import { describe, expect, it } from 'vitest';
import type { CuobjTokenStruct } from '../src/native/layouts.js';
import { loadShimLibrary } from '../src/native/shim-library.js';
import { cFormatToken } from './c-token.js';

const EINVAL = -22;
const EPROTONOSUPPORT = -93;
const SAMPLE = '000073967e5ff000:00400000:01f2e973:0000:007a03:1:00000000000000000000ffff0f0f0fdf';

// Deterministic PRNG so a failure reproduces.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function corpus(): string[] {
  const r = rng(7);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const hex = (n: number) => Array.from({ length: n }, () => pick([...'0123456789abcdef'])).join('');
  const out = new Set<string>([SAMPLE, `${SAMPLE};`, 'rc:abc', 'RC:abc', 'Rc:', '', ':', 'rc', `0${SAMPLE}`]);
  const randomToken = () =>
    `${hex(16)}:${hex(8)}:${hex(8)}:${hex(4)}:${hex(6)}:${pick(['0', '1'])}:${hex(32)}`;
  const alphabet = [...'0123456789abcdefABCDEFg:; x\n-'];
  for (let i = 0; i < 3000; i++) {
    let s = r() < 0.5 ? randomToken() : SAMPLE;
    if (r() < 0.4)
      s += `:${pick([hex(16), '0000000000000000'])}:${pick([hex(16), '0000000000000000', '00000000000000ff'])}`;
    if (r() < 0.2) s += ';';
    const edits = Math.floor(r() * 3);
    for (let e = 0; e < edits; e++) {
      const at = Math.floor(r() * (s.length + 1));
      const kind = r();
      if (kind < 0.4) s = s.slice(0, at) + pick(alphabet) + s.slice(at + 1);
      else if (kind < 0.7) s = s.slice(0, at) + pick(alphabet) + s.slice(at);
      else s = s.slice(0, at) + s.slice(at + 1);
    }
    if (r() < 0.05) s = s.replace(/^[0-9a-f]{16}:[0-9a-f]{8}/, '00000000:00000000'); // size 0
    out.add(s);
  }
  return [...out];
}

describe('TS token codec vs the C codec', () => {
  const lib = loadShimLibrary();

  it('agrees on parse verdict, errno and fields over a mutated corpus', () => {
    const inputs = corpus();
    let accepted = 0;
    for (const s of inputs) {
      const out: Partial<CuobjTokenStruct> = {};
      const rc = lib.fn.cuobj_token_parse(s, out);
      const ts = tryParseRdmaToken(s);
      const label = JSON.stringify(s);
      if (rc === 0 && BigInt(out.override_size!) > BigInt(Number.MAX_SAFE_INTEGER)) {
        // The one deliberate difference: TS exposes `length` as a number, so it refuses override
        // sizes above 2^53 (no real buffer is that large); C accepts any u64 there.
        expect(ts, label).toMatchObject({
          ok: false,
          kind: 'malformed',
          reason: 'token size is out of range',
        });
        continue;
      }
      if (rc === 0) {
        expect(ts.ok, label).toBe(true);
        if (!ts.ok) continue;
        accepted++;
        const t = ts.token;
        expect(BigInt(out.addr!), label).toBe(t.addr);
        expect(out.size, label).toBe(t.size);
        expect(out.rkey, label).toBe(t.rkey);
        expect(out.lid, label).toBe(t.lid);
        expect(out.dctn, label).toBe(t.dctn);
        expect(out.gid_present === 1, label).toBe(t.gidPresent);
        expect([...out.gid!], label).toEqual([...t.gid]);
        expect(BigInt(out.override_addr!), label).toBe(t.overrideAddr);
        expect(BigInt(out.override_size!), label).toBe(t.overrideSize);
        expect(out.has_override === 1, label).toBe(s.length > 81);
      } else {
        expect(ts.ok, label).toBe(false);
        if (ts.ok) continue;
        expect(rc, label).toBe(ts.kind === 'unsupported' ? EPROTONOSUPPORT : EINVAL);
      }
      const kind = lib.fn.cuobj_token_classify(s);
      const tsKind = classifyRdmaToken(s);
      expect(['malformed', 'dc-v1', 'rc'][kind], label).toBe(tsKind === 'dc-v1-override' ? 'dc-v1' : tsKind);
    }
    // the corpus must exercise both sides
    expect(accepted).toBeGreaterThan(500);
    expect(inputs.length - accepted).toBeGreaterThan(500);
  });

  it('formats byte-identically (canonical and override forms)', () => {
    const r = rng(99);
    const u32 = () => Math.floor(r() * 2 ** 32);
    const buf = Buffer.alloc(128);
    for (let i = 0; i < 300; i++) {
      const f: DcTokenFields = {
        addr: (BigInt(u32()) << 32n) | BigInt(u32()),
        size: u32() || 1,
        rkey: u32(),
        lid: u32() & 0xffff,
        dctn: u32() & 0xffffff,
        gidPresent: (i & 1) === 0,
        gid: i % 3 === 0 ? ipv4MappedGid('127.0.0.1') : Uint8Array.from({ length: 16 }, () => u32() & 0xff),
      };
      const override = i % 4 === 0 ? { addr: BigInt(u32()), size: BigInt(u32() || 1) } : undefined;
      const ts = formatRdmaToken(f, override ? { override } : {});
      const n = cFormatToken(lib, f, override, buf);
      expect(n).toBe(ts.length);
      expect(buf.toString('latin1', 0, n)).toBe(ts);
    }
  });
});
