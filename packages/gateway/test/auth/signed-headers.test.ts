import { describe, expect, it } from 'vitest';
import { mustBeSigned, PRESIGNED_MAY_BE_UNSIGNED, unsignedHeaders } from '../../src/auth/signed-headers.js';

describe('signed-headers', () => {
  it('x-amz-* and the legacy x-cuobj-* headers must be signed; x-amzn-* and plain headers need not', () => {
    expect(
      ['x-amz-acl', 'x-amz-rdma-token', 'x-cuobj-rdma-descr', 'x-amzn-trace-id', 'content-type', 'host'].map(
        mustBeSigned,
      ),
    ).toEqual([true, true, true, false, false, false]);
  });

  it('lists host when it is not signed, present or not, then the unsigned must-sign headers', () => {
    const headers = { host: 'h', 'x-amz-date': 'd', 'x-cuobj-content-length': '1', 'user-agent': 'u' };
    expect(unsignedHeaders(headers, ['x-amz-date'])).toEqual(['host', 'x-cuobj-content-length']);
    expect(unsignedHeaders({ 'x-amz-date': 'd' }, ['x-amz-date'])).toEqual(['host']);
    expect(unsignedHeaders(headers, ['host', 'x-amz-date', 'x-cuobj-content-length'])).toEqual([]);
  });

  it('a presigned URL may leave x-amz-content-sha256 unsigned, and nothing else', () => {
    const headers = { host: 'h', 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', 'x-amz-date': 'd' };
    expect(unsignedHeaders(headers, ['host'], PRESIGNED_MAY_BE_UNSIGNED)).toEqual(['x-amz-date']);
    expect([...PRESIGNED_MAY_BE_UNSIGNED]).toEqual(['x-amz-content-sha256']);
  });
});
