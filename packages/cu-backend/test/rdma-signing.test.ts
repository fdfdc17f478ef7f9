// The RDMA plugin's signing rules (rdma-signing.ts), which the gateway's auth no longer carries:
// the legacy X-CuObj-* trio is declared must-sign for SigV4, and a SigV2-signed request with any
// RDMA header is refused with 400 InvalidRequest (SigV2 cannot sign the trio nor a payload hash).
// The whole path, through the built gateway, is apps/vgwrdma/test/rdma-unsigned-headers.e2e.test.ts.
import type { S3Error } from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import { RDMA_SIGNED_HEADER_PREFIXES, refuseRdmaUnderV2 } from '../src/rdma-signing.js';

const V2 = { version: 'AWS' } as const;
const V4 = { version: 'AWS4-HMAC-SHA256' } as const;

/** What refuseRdmaUnderV2 throws for these header names (undefined when it passes). */
function refusal(names: string[], signing: { version: string } | undefined): S3Error | undefined {
  try {
    refuseRdmaUnderV2(names, signing);
    return undefined;
  } catch (error) {
    return error as S3Error;
  }
}

describe('RDMA signing rules', () => {
  it('refuse RDMA headers under SigV2: the X-CuObj-* trio is not signed, nor is a payload hash', () => {
    for (const name of ['x-cuobj-rdma-descr', 'X-CuObj-Content-Length', 'x-amz-rdma-token']) {
      const err = refusal(['date', name], V2);
      expect([err?.code, err?.status]).toEqual(['InvalidRequest', 400]);
    }
  });

  it('let SigV2 without RDMA headers, SigV4 and anonymous requests on to the edge', () => {
    expect(refusal(['date', 'x-amz-meta-a'], V2)).toBeUndefined();
    expect(refusal(['x-cuobj-rdma-descr', 'x-amz-rdma-token'], V4)).toBeUndefined();
    expect(refusal(['x-cuobj-rdma-descr'], undefined)).toBeUndefined();
  });

  it('declare the legacy trio must-sign for SigV4 (x-amz-rdma-token already is, as x-amz-*)', () => {
    expect(RDMA_SIGNED_HEADER_PREFIXES).toEqual(['x-cuobj-']);
  });
});
