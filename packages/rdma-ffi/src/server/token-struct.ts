// The parsed token as the C ABI takes it (cuobj_token_t, ABI 1.7): the fields the HTTP edge
// already validated, with the window (suffix override or legacy trio) in the override fields, so
// the shim checks [remoteAddr, +length) exactly as the descriptor says — without a string to parse.

import type { RdmaToken } from '@vgwrdma/rdma-protocol';
import type { CuobjTokenStruct } from '../native/layouts.js';

export function tokenStruct(t: RdmaToken): CuobjTokenStruct {
  const hasOverride = t.overrideAddr !== 0n || t.overrideSize !== 0n;
  return {
    addr: t.addr,
    size: t.size,
    rkey: t.rkey,
    lid: t.lid,
    gid_present: t.gidPresent ? 1 : 0,
    has_override: hasOverride ? 1 : 0,
    dctn: t.dctn,
    gid: t.gid,
    override_addr: t.overrideAddr,
    override_size: t.overrideSize,
  };
}
