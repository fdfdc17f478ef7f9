// The seven fields of a DC v1 token as a fast-check record, each over its full wire range. Typed
// structurally (no import of @vgwrdma/rdma-protocol, which tests this with it), so the result is
// assignable to its DcTokenFields. A test narrows a field by passing its own arbitrary for it.
import fc from 'fast-check';

export interface TokenFields {
  readonly addr: bigint;
  readonly size: number;
  readonly rkey: number;
  readonly lid: number;
  readonly dctn: number;
  readonly gidPresent: boolean;
  readonly gid: Uint8Array;
}

export type TokenFieldArbs = { readonly [K in keyof TokenFields]?: fc.Arbitrary<TokenFields[K]> };

export const U64_MAX = (1n << 64n) - 1n;

export function tokenFieldsArb(narrowed: TokenFieldArbs = {}): fc.Arbitrary<TokenFields> {
  return fc.record({
    addr: narrowed.addr ?? fc.bigInt({ min: 0n, max: U64_MAX }),
    size: narrowed.size ?? fc.integer({ min: 1, max: 0xffff_ffff }),
    rkey: narrowed.rkey ?? fc.integer({ min: 0, max: 0xffff_ffff }),
    lid: narrowed.lid ?? fc.integer({ min: 0, max: 0xffff }),
    dctn: narrowed.dctn ?? fc.integer({ min: 0, max: 0xff_ffff }),
    gidPresent: narrowed.gidPresent ?? fc.boolean(),
    gid: narrowed.gid ?? fc.uint8Array({ minLength: 16, maxLength: 16 }),
  });
}
