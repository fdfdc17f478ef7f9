// AWS's access-log line from an observation: AWS's time format, operation names (table and
// fallback), escaping that keeps one record one line with AWS's field count whatever a client
// sends, '-' for what does not apply, the signing and TLS fields, and the three trailing RDMA
// fields.
import type { RdmaObservation } from '@vgwrdma/cu-backend';
import type { RequestObservation } from '@vgwrdma/gateway';
import { describe, expect, it } from 'vitest';
import { awsOperation, awsTime, quoted, s3AccessLine, unquoted } from '../../src/access-log/s3-format.js';

const base: RequestObservation = {
  requestId: '0123456789ABCDEF',
  startedAt: Date.UTC(2026, 1, 6, 0, 0, 38),
  remoteAddress: '192.0.2.3',
  method: 'GET',
  url: '/bkt/a%20b',
  operation: 'GetObject',
  bucket: 'bkt',
  key: 'a b',
  status: 200,
  errorCode: undefined,
  bytesSent: 0,
  bytesReceived: 0,
  objectSize: 4096,
  userAgent: 'agent "quoted"\nnext',
  referer: undefined,
  host: 'gw:7070',
  accessKey: undefined,
  signatureVersion: undefined,
  authType: undefined,
  tlsVersion: undefined,
  tlsCipher: undefined,
  totalMs: 7.6,
  firstByteMs: 2.2,
  completed: true,
};

describe('s3AccessLine', () => {
  it("formats AWS's time and names operations from the table, else REST.<METHOD>.<OPERATION>", () => {
    expect(awsTime(base.startedAt)).toBe('[06/Feb/2026:00:00:38 +0000]');
    expect(awsOperation(base)).toBe('REST.GET.OBJECT');
    expect(awsOperation({ operation: 'GetBucketWebsite', method: 'GET' })).toBe('REST.GET.GETBUCKETWEBSITE');
    expect(awsOperation({ operation: 'admin:create-user', method: 'PATCH' })).toBe(
      'REST.PATCH.ADMIN_CREATE_USER',
    );
  });

  it('keeps one record on one line, quotes escaped, dashes for the unknown, RDMA fields last', () => {
    const done: RdmaObservation = { via: 'rdma', direction: 'get', outcome: 'done', bytes: 4096 };
    const line = s3AccessLine(base, done);
    expect(line).not.toContain('\n');
    expect(line).toContain('"agent %22quoted%22%0Anext"');
    expect(
      line.startsWith(
        '- bkt [06/Feb/2026:00:00:38 +0000] 192.0.2.3 - 0123456789ABCDEF REST.GET.OBJECT a%20b ',
      ),
    ).toBe(true);
    expect(line).toContain(' "GET /bkt/a%20b HTTP/1.1" 200 - - 4096 8 2 "-" ');
    expect(line.endsWith(' gw:7070 - - - rdma 4096 -')).toBe(true);
    const declined: RdmaObservation = {
      via: 'http',
      direction: 'get',
      outcome: 'declined',
      declineReason: 'pool-busy',
      bytes: 0,
    };
    expect(s3AccessLine({ ...base, bytesSent: 4096 }, declined).endsWith(' http 0 pool-busy')).toBe(true);
    expect(s3AccessLine(base, undefined).endsWith(' http - -')).toBe(true);
  });
});

describe('field escaping', () => {
  it('percent-encodes what could end a field or a line, and keeps the rest', () => {
    expect(unquoted('bkt')).toBe('bkt');
    expect(unquoted('')).toBe('-');
    expect(unquoted(undefined)).toBe('-');
    expect(unquoted('a b\nc\td"e\\f')).toBe('a%20b%0Ac%09d%22e%5Cf');
    expect(unquoted('[::1]:7070')).toBe('%5B::1%5D:7070');
    expect(quoted('a b')).toBe('"a b"');
    expect(quoted('x"\r\n\\')).toBe('"x%22%0D%0A%5C"');
    // Unicode line breaks (U+2028, NEL) and other non-ASCII go as their UTF-8 bytes.
    expect(quoted('\u2028\u0085é')).toBe('"%E2%80%A8%C2%85%C3%A9"');
    expect(quoted(undefined)).toBe('"-"');
  });

  it('writes 29 fields on one line when every client-sent value is hostile', () => {
    const hostile = 'x "y"\n[z]\t\\ \u2028';
    const line = s3AccessLine(
      {
        ...base,
        bucket: hostile,
        key: hostile,
        url: `/${hostile}?q=${hostile}`,
        userAgent: hostile,
        referer: hostile,
        host: hostile,
        accessKey: hostile,
        errorCode: hostile,
        operation: hostile,
      },
      undefined,
    );
    expect(line.split(/\r\n|[\n\r\u2028\u2029\u0085]/)).toHaveLength(1);
    const fields = line.match(/"[^"]*"|\[[^\]]*\]|\S+/g) ?? [];
    expect(fields).toHaveLength(29);
  });

  it('fills signature version, cipher, auth type and TLS version when known', () => {
    const line = s3AccessLine(
      {
        ...base,
        signatureVersion: 'SigV4',
        authType: 'QueryString',
        tlsVersion: 'TLSv1.3',
        tlsCipher: 'TLS_AES_256_GCM_SHA384',
      },
      undefined,
    );
    const fields = line.match(/"[^"]*"|\[[^\]]*\]|\S+/g) ?? [];
    expect(fields.slice(19, 24)).toEqual([
      'SigV4',
      'TLS_AES_256_GCM_SHA384',
      'QueryString',
      'gw:7070',
      'TLSv1.3',
    ]);
  });
});
