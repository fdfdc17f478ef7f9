// Property tests of the DC v1 token codec: the TypeScript codec (@vgwrdma/rdma-protocol) against the C one
// (cuobj_token_parse / classify / format through koffi) on generated, mutated and random strings,
// plus round trips and "never throws". Runs: FUZZ_RUNS (CI default 300; `npm run stress:fuzz`
// sets 10^6). A failure prints fast-check's seed and shrunk counterexample.

import { fuzzSettings, tokenFieldsArb, U64_MAX as U64 } from '@vgwrdma/fuzz-kit';
import {
  classifyRdmaToken,
  type DcTokenFields,
  formatRdmaToken,
  tryParseRdmaToken,
} from '@vgwrdma/rdma-protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CuobjTokenStruct } from '../../src/native/layouts.js';
import { loadShimLibrary } from '../../src/native/shim-library.js';
import { cFormatToken } from '../c-token.js';

const { timeout: TIMEOUT, params: FUZZ } = fuzzSettings(300, { msPerRun: 2 });
const EINVAL = -22;
const EPROTONOSUPPORT = -93;
const KINDS = new Set(['dc-v1', 'dc-v1-override', 'rc', 'malformed']);

const fieldsArb: fc.Arbitrary<DcTokenFields> = tokenFieldsArb();
const overrideArb = fc.option(
  fc.record({
    addr: fc.oneof(fc.constant(0n), fc.bigInt({ min: 0n, max: U64 })),
    size: fc.oneof(fc.constant(0n), fc.bigInt({ min: 1n, max: U64 })),
  }),
  { nil: undefined },
);
const validTokenArb = fc
  .tuple(fieldsArb, overrideArb, fc.boolean())
  .map(([f, override, semicolon]) => formatRdmaToken(f, override ? { override, semicolon } : {}));

// ASCII without NUL: koffi hands C the UTF-8 bytes, so the two codecs see the same characters.
const CHARS = [...'0123456789abcdefABCDEFgx:; -\t%rc'];
const charArb = fc.oneof(
  fc.constantFrom(...CHARS),
  fc.integer({ min: 1, max: 127 }).map((c) => String.fromCharCode(c)),
);
type Edit = { at: number; kind: 'replace' | 'insert' | 'delete' | 'truncate'; ch: string };
const editArb: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(130),
  kind: fc.constantFrom('replace', 'insert', 'delete', 'truncate'),
  ch: charArb,
});
function applyEdit(s: string, e: Edit): string {
  const at = e.at % (s.length + 1);
  if (e.kind === 'replace') return s.slice(0, at) + e.ch + s.slice(at + 1);
  if (e.kind === 'insert') return s.slice(0, at) + e.ch + s.slice(at);
  if (e.kind === 'delete') return s.slice(0, at) + s.slice(at + 1);
  return s.slice(0, at);
}
const mutatedArb = fc
  .tuple(validTokenArb, fc.array(editArb, { minLength: 1, maxLength: 3 }))
  .map(([s, edits]) => edits.reduce(applyEdit, s));
/** Field-aware edits: a zero size (refused even with an override size), any GID-present digit. */
const fieldEditArb = fc.oneof(
  validTokenArb.map((s) => `${s.slice(0, 17)}00000000${s.slice(25)}`),
  fc
    .tuple(validTokenArb, fc.constantFrom(...'0123456789abcdefA'))
    .map(([s, d]) => `${s.slice(0, 47)}${d}${s.slice(48)}`),
);
/** Everything the differential property sees. */
const candidateArb = fc.oneof(
  { weight: 3, arbitrary: validTokenArb },
  { weight: 5, arbitrary: mutatedArb },
  { weight: 1, arbitrary: fieldEditArb },
  { weight: 1, arbitrary: validTokenArb.map((s) => `rc:${s}`) },
  { weight: 1, arbitrary: validTokenArb.map((s) => `f${s}`) },
  { weight: 1, arbitrary: fc.string({ unit: charArb, maxLength: 130 }) },
);

/** A cheap assertion for the hot loop (vitest's expect costs more than the codecs under test). */
function same(got: unknown, want: unknown, what: string): void {
  if (got !== want) throw new Error(`${what}: got ${String(got)}, want ${String(want)}`);
}
const hex = (b: Uint8Array | readonly number[] | undefined) => Buffer.from(b ?? []).toString('hex');

describe('DC v1 token codec, TS vs C (property)', () => {
  const lib = loadShimLibrary();
  const verdicts = { accepted: 0, malformed: 0, unsupported: 0 };

  it('same verdict, errno, fields and kind on every input', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(candidateArb, (s) => {
        const out: Partial<CuobjTokenStruct> = {};
        const rc = lib.fn.cuobj_token_parse(s, out);
        const ts = tryParseRdmaToken(s);
        if (rc === 0 && BigInt(out.override_size ?? 0n) > BigInt(Number.MAX_SAFE_INTEGER)) {
          // The documented difference: TS lengths are numbers, override sizes above 2^53 refused.
          same(ts.ok ? 'ok' : ts.kind, 'malformed', 'TS verdict on a > 2^53 override size');
          return;
        }
        same(ts.ok, rc === 0, `verdict (C rc ${rc})`);
        if (ts.ok) {
          verdicts.accepted++;
          const t = ts.token;
          same(BigInt(out.addr ?? -1), t.addr, 'addr');
          same(
            `${out.size}/${out.rkey}/${out.lid}/${out.dctn}`,
            `${t.size}/${t.rkey}/${t.lid}/${t.dctn}`,
            'fields',
          );
          same(out.gid_present === 1, t.gidPresent, 'gid present');
          same(hex(out.gid), hex(t.gid), 'gid');
          same(BigInt(out.override_addr ?? -1), t.overrideAddr, 'override addr');
          same(BigInt(out.override_size ?? -1), t.overrideSize, 'override size');
        } else {
          verdicts[ts.kind]++;
          same(rc, ts.kind === 'unsupported' ? EPROTONOSUPPORT : EINVAL, 'errno');
        }
        const kind = ['malformed', 'dc-v1', 'rc'][lib.fn.cuobj_token_classify(s)];
        const tsKind = classifyRdmaToken(s);
        same(kind, tsKind === 'dc-v1-override' ? 'dc-v1' : tsKind, 'kind');
      }),
      FUZZ,
    );
    // the generators reach all three verdicts
    expect(Math.min(verdicts.accepted, verdicts.malformed, verdicts.unsupported)).toBeGreaterThan(
      FUZZ.numRuns / 50,
    );
  });

  it('format → parse is the identity, and C formats the same bytes', { timeout: TIMEOUT }, () => {
    const buf = Buffer.alloc(160);
    fc.assert(
      fc.property(fieldsArb, overrideArb, (f, override) => {
        const s = formatRdmaToken(f, override ? { override } : {});
        const parsed = tryParseRdmaToken(s);
        const tooBig = override !== undefined && override.size > BigInt(Number.MAX_SAFE_INTEGER);
        same(parsed.ok, !tooBig, 'parsed');
        if (parsed.ok) {
          const t = parsed.token;
          same(t.addr, f.addr, 'addr');
          same(
            `${t.size}/${t.rkey}/${t.lid}/${t.dctn}/${t.gidPresent}`,
            `${f.size}/${f.rkey}/${f.lid}/${f.dctn}/${f.gidPresent}`,
            'fields',
          );
          same(hex(t.gid), hex(f.gid), 'gid');
          same(t.overrideAddr, override?.addr ?? 0n, 'override addr');
          same(t.overrideSize, override?.size ?? 0n, 'override size');
        }
        const n = cFormatToken(lib, f, override, buf);
        same(buf.toString('latin1', 0, n), s, 'C format');
      }),
      FUZZ,
    );
  });

  it('never throws, whatever the string (any UTF-16, NULs, lone surrogates)', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), mutatedArb), (s) => {
        const r = tryParseRdmaToken(s);
        if (r.ok) same(/^[0-9a-f:]{81}$/.test(r.token.base), true, 'base of an accepted token');
        same(KINDS.has(classifyRdmaToken(s)), true, 'kind');
      }),
      FUZZ,
    );
  });
});
