// The RDMA request headers' signing rules, which the plugin brings to the gateway (the gateway's
// auth knows no RDMA header):
//   - the legacy trio X-CuObj-RDMA-Descr, X-CuObj-Content-Length, X-CuObj-Remote-Buf-Start is not
//     x-amz-* but redirects the object's bytes just as x-amz-rdma-token does (docs/protocol.md), so
//     the plugin declares `x-cuobj-` a prefix SigV4 must sign (GatewayPlugin.signedHeaderPrefixes:
//     an unsigned one is 403 AccessDenied at the authenticate step, like an unsigned x-amz-*);
//   - SigV2 signs x-amz-rdma-token but not the trio, and signs no payload hash that CuServer could
//     check the RDMA bytes against. Rather than a partial rule, a SigV2-signed request that carries
//     any RDMA header is refused with 400 InvalidRequest at the edge, right after authentication
//     and before any decision or byte (docs/security.md).
import { S3Error } from '@vgwrdma/backend-contract';

/** Header prefixes beyond x-amz-* the signature must cover (the plugin's signedHeaderPrefixes). */
export const RDMA_SIGNED_HEADER_PREFIXES: readonly string[] = ['x-cuobj-'];

const RDMA_HEADER = /^(?:x-amz-rdma-|x-cuobj-)/i;

/** The signing facts the rule reads (the gateway's AuthResult.signing, by shape). */
export interface EdgeSigning {
  /** 'AWS' for Signature Version 2, 'AWS4-HMAC-SHA256' for version 4. */
  readonly version: string;
}

/** Throws InvalidRequest when a SigV2-signed request carries any RDMA header. */
export function refuseRdmaUnderV2(headerNames: Iterable<string>, signing: EdgeSigning | undefined): void {
  if (signing?.version !== 'AWS') return;
  for (const name of headerNames) {
    if (RDMA_HEADER.test(name))
      throw S3Error.custom(
        'InvalidRequest',
        'RDMA transfers (x-amz-rdma-token, X-CuObj-*) require AWS Signature Version 4; this request is signed with Signature Version 2.',
      );
  }
}
