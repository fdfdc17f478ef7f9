import { describe, expect, it } from 'vitest';
import { mustBeSigned, PRESIGNED_MAY_BE_UNSIGNED, unsignedHeaders } from '../../src/auth/signed-headers.js';

describe('signed-headers', () => {
  it('x-amz-* headers and those under a declared prefix must be signed; x-amzn-* and plain headers need not', () => {
    const names = [
      'x-amz-acl',
      'x-amz-rdma-token',
      'x-cuobj-rdma-descr',
      'x-amzn-trace-id',
      'content-type',
      'host',
    ];
    expect(names.map((name) => mustBeSigned(name, ['x-cuobj-']))).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    // Without a declared prefix only x-amz-* is the gateway's own rule.
    expect(names.map((name) => mustBeSigned(name))).toEqual([true, true, false, false, false, false]);
  });

  it('lists host when it is not signed, present or not, then the unsigned must-sign headers', () => {
    const headers = { host: 'h', 'x-amz-date': 'd', 'x-cuobj-content-length': '1', 'user-agent': 'u' };
    const prefixes = ['x-cuobj-'];
    expect(unsignedHeaders(headers, ['x-amz-date'], undefined, prefixes)).toEqual([
      'host',
      'x-cuobj-content-length',
    ]);
    expect(unsignedHeaders({ 'x-amz-date': 'd' }, ['x-amz-date'], undefined, prefixes)).toEqual(['host']);
    expect(
      unsignedHeaders(headers, ['host', 'x-amz-date', 'x-cuobj-content-length'], undefined, prefixes),
    ).toEqual([]);
  });

  it('a presigned URL may leave x-amz-content-sha256 unsigned, and nothing else', () => {
    const headers = { host: 'h', 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD', 'x-amz-date': 'd' };
    expect(unsignedHeaders(headers, ['host'], PRESIGNED_MAY_BE_UNSIGNED)).toEqual(['x-amz-date']);
    expect([...PRESIGNED_MAY_BE_UNSIGNED]).toEqual(['x-amz-content-sha256']);
  });
});
