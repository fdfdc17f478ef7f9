// AWS's published SigV4 examples for S3 (GET with the Authorization header, a presigned GET and
// the signed chunked upload): the verifier must accept the documented signatures byte for byte,
// and the chunk decoder must accept the documented chunk signatures.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { authenticate } from '../../src/auth/authenticate.js';
import { staticCredentials } from '../../src/auth/credentials.js';
import type { AuthInput } from '../../src/auth/types.js';
import { decodeBody } from '../../src/body/index.js';

const store = staticCredentials([
  { access: 'AKIAIOSFODNN7EXAMPLE', secret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' },
]);
const opts = { region: 'us-east-1' };
const now = new Date('2013-05-24T00:05:00Z');
const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
/** One of the examples' requests: a GET without a query, checked at the examples' time, unless `over` says otherwise. */
const example = (
  rawPath: string,
  headers: AuthInput['headers'],
  over: Partial<AuthInput> = {},
): AuthInput => ({
  method: 'GET',
  rawPath,
  rawQuery: '',
  now,
  headers,
  ...over,
});

describe('AWS published SigV4 examples', () => {
  it('GET Object with the Authorization header', async () => {
    const input = example('/test.txt', {
      host: 'examplebucket.s3.amazonaws.com',
      range: 'bytes=0-9',
      'x-amz-content-sha256': EMPTY,
      'x-amz-date': '20130524T000000Z',
      authorization:
        'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    });
    const result = await authenticate(input, store, opts);
    expect(result).toMatchObject({
      accessKey: 'AKIAIOSFODNN7EXAMPLE',
      payload: { kind: 'signed', sha256: EMPTY },
    });
    await expect(
      authenticate({ ...input, headers: { ...input.headers, range: 'bytes=0-10' } }, store, opts),
    ).rejects.toMatchObject({
      code: 'SignatureDoesNotMatch',
    });
  });

  it('presigned GET Object valid for 86400 seconds', async () => {
    const input = example(
      '/test.txt',
      { host: 'examplebucket.s3.amazonaws.com' },
      {
        rawQuery:
          'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
        now: new Date('2013-05-24T23:59:59Z'),
      },
    );
    await expect(authenticate(input, store, opts)).resolves.toMatchObject({
      presigned: true,
      payload: { kind: 'unsigned' },
    });
    await expect(
      authenticate({ ...input, now: new Date('2013-05-25T00:00:01Z') }, store, opts),
    ).rejects.toMatchObject({
      code: 'AccessDenied',
      message: 'Request has expired.',
    });
  });

  it('signed chunked upload: seed signature and the three chunk signatures', async () => {
    const input = example(
      '/examplebucket/chunkObject.txt',
      {
        host: 's3.amazonaws.com',
        'x-amz-date': '20130524T000000Z',
        'x-amz-storage-class': 'REDUCED_REDUNDANCY',
        'x-amz-content-sha256': 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD',
        'content-encoding': 'aws-chunked',
        'x-amz-decoded-content-length': '66560',
        'content-length': '66824',
        authorization:
          'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-amz-storage-class,Signature=4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9',
      },
      { method: 'PUT' },
    );
    const result = await authenticate(input, store, opts);
    expect(result.payload).toMatchObject({
      kind: 'streaming-signed',
      trailer: false,
      seedSignature: '4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9',
      scope: '20130524/us-east-1/s3/aws4_request',
      amzDate: '20130524T000000Z',
    });

    const frame = (size: number, sig: string) =>
      Buffer.concat([
        Buffer.from(`${size.toString(16)};chunk-signature=${sig}\r\n`),
        Buffer.alloc(size, 'a'),
        Buffer.from('\r\n'),
      ]);
    const wire = Buffer.concat([
      frame(65536, 'ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648'),
      frame(1024, '0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497'),
      frame(0, 'b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9'),
    ]);
    expect(wire.length).toBe(66824);

    const decoded = decodeBody(Readable.from([wire]), input.headers, result.payload);
    expect(decoded.decodedLength).toBe(66560);
    const parts: Buffer[] = [];
    for await (const part of decoded.stream) parts.push(part as Buffer);
    expect(Buffer.concat(parts).equals(Buffer.alloc(66560, 'a'))).toBe(true);

    // One changed byte in the second chunk breaks its signature.
    const tampered = Buffer.from(wire);
    tampered[65536 + 200] = 'b'.charCodeAt(0);
    const bad = decodeBody(Readable.from([tampered]), input.headers, result.payload);
    await expect(bad.stream.toArray()).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
  });
});
