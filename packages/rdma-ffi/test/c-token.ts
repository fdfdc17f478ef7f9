// The C token codec (cuobj_token_format through koffi) as the codec tests call it: the fields of a
// DC v1 token, plus an optional window override, formatted by C into `out`. The struct is built
// as the server builds it (tokenStruct), except that an override given as 0/0 is still passed as
// an override: the tests compare it with the TypeScript formatter, which writes the suffix then.

import type { DcTokenFields, RdmaToken } from '@vgwrdma/rdma-protocol';
import type { ShimLibrary } from '../src/native/shim-library.js';
import { tokenStruct } from '../src/server/token-struct.js';

/** cuobj_token_format of `f` (and `override`) into `out`; returns what C returned (the length). */
export function cFormatToken(
  lib: ShimLibrary,
  f: DcTokenFields,
  override: { addr: bigint; size: bigint } | undefined,
  out: Buffer,
): number {
  // tokenStruct reads only the fields and the override pair, not the parsed-token extras.
  const fields = {
    ...f,
    overrideAddr: override?.addr ?? 0n,
    overrideSize: override?.size ?? 0n,
  } as RdmaToken;
  return lib.fn.cuobj_token_format(
    { ...tokenStruct(fields), has_override: override ? 1 : 0 },
    out,
    out.length,
  );
}
