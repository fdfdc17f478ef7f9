// Size limits of the protocol (docs/protocol.md "Size limits"):
//   - a token's size field is a u32 and the transports register at most 4 GiB − 64 KiB per
//     region, so that is the most one token can describe;
//   - clients default to a 1 GiB session, as vgwrdma and its client do (callers may raise it);
//   - a PUT / UploadPart by RDMA obeys the same 5 GiB as an HTTP body.

export const GiB = 2 ** 30;
/** Largest region one token can describe: 4 GiB − 64 KiB. */
export const TOKEN_CAPACITY = 2 ** 32 - 2 ** 16;
/** Default size limit of a client session. */
export const DEFAULT_MAX_SESSION_SIZE = GiB;
/** S3's single-PUT limit, also the largest part. */
export const MAX_UPLOAD_SIZE = 5 * GiB;
