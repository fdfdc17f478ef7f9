// AWS's access-log line from an observation: AWS's time format, operation names (table and
// fallback), quoting that keeps one record one line, '-' for what does not apply, and the three
// trailing RDMA fields.
import type { RdmaTransferEvent } from '@vgwrdma/cu-backend';
import type { RequestObservation } from '@vgwrdma/gateway';
import { describe, expect, it } from 'vitest';
import { awsOperation, awsTime, s3AccessLine } from '../../src/access-log/s3-format.js';

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
  totalMs: 7.6,
  firstByteMs: 2.2,
  completed: true,
  rdma: { reply: '200', bytes: 4096 },
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

  const { rdma: _rdma, ...plain } = base;

  it('keeps one record on one line, quotes escaped, dashes for the unknown, RDMA fields last', () => {
    const done: RdmaTransferEvent = {
      requestId: base.requestId,
      direction: 'get',
      outcome: 'done',
      bytes: 4096,
      ms: 1,
      lanes: 1,
    };
    const line = s3AccessLine(base, done);
    expect(line).not.toContain('\n');
    expect(line).toContain('"agent \\"quoted\\"next"');
    expect(
      line.startsWith(
        '- bkt [06/Feb/2026:00:00:38 +0000] 192.0.2.3 - 0123456789ABCDEF REST.GET.OBJECT a%20b ',
      ),
    ).toBe(true);
    expect(line).toContain(' "GET /bkt/a%20b HTTP/1.1" 200 - - 4096 8 2 "-" ');
    expect(line.endsWith(' gw:7070 - - - rdma 4096 -')).toBe(true);
    const declined: RdmaTransferEvent = {
      ...done,
      outcome: 'declined',
      reason: 'pool-busy',
      bytes: 0,
      lanes: 0,
    };
    expect(
      s3AccessLine({ ...base, rdma: { reply: '501', bytes: 0 }, bytesSent: 4096 }, declined).endsWith(
        ' http 0 pool-busy',
      ),
    ).toBe(true);
    expect(s3AccessLine(plain, undefined).endsWith(' http - -')).toBe(true);
  });
});
