// The seven fields of a DC v1 token as a fast-check record, each over its full wire range. Typed
// structurally, from the arbitraries (no import of @vgwrdma/rdma-protocol, which tests this with
// it), so the result is assignable to its DcTokenFields. A test narrows a field by passing its own
// arbitrary for it; the record keeps the field order, so a seed draws the same values.
import fc from 'fast-check';

export const U64_MAX = (1n << 64n) - 1n;

const FULL_RANGE = {
  addr: fc.bigInt({ min: 0n, max: U64_MAX }),
  size: fc.integer({ min: 1, max: 0xffff_ffff }),
  rkey: fc.integer({ min: 0, max: 0xffff_ffff }),
  lid: fc.integer({ min: 0, max: 0xffff }),
  dctn: fc.integer({ min: 0, max: 0xff_ffff }),
  gidPresent: fc.boolean(),
  gid: fc.uint8Array({ minLength: 16, maxLength: 16 }),
};

type Ranges = typeof FULL_RANGE;
export type TokenFields = {
  readonly [K in keyof Ranges]: Ranges[K] extends fc.Arbitrary<infer T> ? T : never;
};
export type TokenFieldArbs = { readonly [K in keyof TokenFields]?: fc.Arbitrary<TokenFields[K]> };

export function tokenFieldsArb(narrowed: TokenFieldArbs = {}): fc.Arbitrary<TokenFields> {
  return fc.record({ ...FULL_RANGE, ...narrowed });
}
