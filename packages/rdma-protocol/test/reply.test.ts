// What each x-amz-rdma-reply value means per operation, and the headers a gateway writes.
import { describe, expect, it } from 'vitest';
import { declineMessage, doneHeaders, replyMeaning, reportedBytes } from '../src/reply.js';

describe('reply values', () => {
  it('means done, declined, absent or invalid, per operation', () => {
    const table: [Parameters<typeof replyMeaning>[0], string | undefined, string][] = [
      ['put', '200', 'done'],
      ['put', '206', 'invalid'], // a PUT is never partial
      ['put', '204', 'done'], // the original vgwrdma gateway's answer
      ['get', '204', 'done'],
      ['get', '200', 'done'],
      ['get', '206', 'done'],
      ['put', '501', 'declined'],
      ['get', '501', 'declined'],
      ['get', undefined, 'absent'],
      ['get', '500', 'invalid'],
      ['put', ' 200', 'invalid'],
    ];
    for (const [op, value, meaning] of table) expect(replyMeaning(op, value), `${op} ${value}`).toBe(meaning);
  });

  it('a done transfer reports its byte count under both names, and a reader finds either', () => {
    const h = doneHeaders(206, 1234);
    expect(h).toEqual({
      'x-amz-rdma-reply': '206',
      'x-amz-rdma-bytes-transferred': '1234',
      'x-amz-rdma-bytes': '1234',
    });
    expect(reportedBytes(h)).toBe('1234');
    expect(reportedBytes({ 'x-amz-rdma-bytes': '7' })).toBe('7');
    expect(reportedBytes({})).toBeUndefined();
  });

  it('a decline says why and how to retry', () => {
    expect(declineMessage('pool-busy')).toBe(
      'RDMA declined: no RDMA buffer became free in time; retry without x-amz-rdma-token to send the data in the body',
    );
  });
});
