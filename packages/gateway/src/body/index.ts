// @vgwrdma/gateway body: request-body decoding and verification for every SigV4 payload mode
// (plain, signed hash, aws-chunked with or without chunk signatures and trailers).

export type { AwsChunkedOptions } from './aws-chunked-decoder.js';
export { AwsChunkedDecoder } from './aws-chunked-decoder.js';
export type { DecodedBody, DecodeOptions } from './decode-body.js';
export { decodeBody } from './decode-body.js';
export type { PlainBodyOptions } from './plain-body.js';
export { PlainBody } from './plain-body.js';
