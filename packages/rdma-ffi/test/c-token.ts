// The C token codec (cuobj_token_format through koffi) as the codec tests call it: the fields of a
// DC v1 token, plus an optional window override, formatted by C into `out`.

import type { DcTokenFields } from '@vgwrdma/rdma-protocol';
import type { ShimLibrary } from '../src/native/shim-library.js';

/** cuobj_token_format of `f` (and `override`) into `out`; returns what C returned (the length). */
export function cFormatToken(
  lib: ShimLibrary,
  f: DcTokenFields,
  override: { addr: bigint; size: bigint } | undefined,
  out: Buffer,
): number {
  return lib.fn.cuobj_token_format(
    {
      addr: f.addr,
      size: f.size,
      rkey: f.rkey,
      lid: f.lid,
      dctn: f.dctn,
      gid: f.gid,
      gid_present: f.gidPresent ? 1 : 0,
      has_override: override ? 1 : 0,
      override_addr: override?.addr ?? 0n,
      override_size: override?.size ?? 0n,
    },
    out,
    out.length,
  );
}
