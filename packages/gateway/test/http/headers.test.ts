import { describe, expect, it } from 'vitest';
import { parseContentHeaders, storedContentEncoding } from '../../src/http/headers.js';

describe('storedContentEncoding', () => {
  it.each([
    ['aws-chunked,gzip', 'gzip'],
    ['gzip, aws-chunked', 'gzip'],
    ['AWS-CHUNKED, gzip, br', 'gzip, br'],
    ['deflate, gzip', 'deflate, gzip'],
    ['gzip', 'gzip'],
  ])('%s keeps %s', (sent, kept) => {
    expect(storedContentEncoding(sent)).toBe(kept);
  });

  it('aws-chunked alone leaves no Content-Encoding on the object', () => {
    expect(storedContentEncoding('aws-chunked')).toBeUndefined();
    expect(parseContentHeaders({ 'content-encoding': 'aws-chunked', 'content-type': 'text/plain' })).toEqual({
      contentType: 'text/plain',
    });
  });
});
