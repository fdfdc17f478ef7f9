// The upload guard on its own: bytes pass in order, the last chunk is held until the checks pass
// (so an upstream never receives a complete body that fails them), and a failure neither ends
// nor errors the stream the SDK reads — it is reported for the caller to abort the request.
import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { getChecksum } from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import { guardUpload, type UploadGuard } from '../src/upload-body.js';

function crc32c(data: Buffer): string {
  const h = getChecksum('CRC32C').create();
  h.update(data);
  return h.digest();
}

/** Collects what the guard lets through; resolves on 'end', or when a failure is reported. */
function drain(guard: UploadGuard, failure: Promise<unknown>) {
  const out: Buffer[] = [];
  guard.on('data', (c: Buffer) => out.push(c));
  const ended = new Promise<'ended'>((r) => guard.once('end', () => r('ended')));
  return Promise.race([ended, failure.then((err) => ({ err }))]).then((how) => ({
    how,
    data: Buffer.concat(out),
  }));
}

function setup(spec: Parameters<typeof guardUpload>[1]) {
  const source = new PassThrough();
  let report!: (err: unknown) => void;
  const failure = new Promise<unknown>((r) => {
    report = r;
  });
  const guard = guardUpload(source, spec, (err) => report(err));
  return { source, guard, result: drain(guard, failure) };
}

describe('UploadGuard', () => {
  it('passes every byte in order and ends when length and checksum match', async () => {
    const data = Buffer.from('0123456789abcdefghij');
    let expectedCalls = 0;
    const { source, guard, result } = setup({
      contentLength: data.length,
      checksum: {
        algorithm: 'CRC32C',
        expected: () => {
          expectedCalls++;
          return crc32c(data);
        },
      },
    });
    source.write(data.subarray(0, 7));
    source.write(data.subarray(7, 15));
    source.end(data.subarray(15));
    const { how, data: got } = await result;
    expect(how).toBe('ended');
    expect(got.equals(data)).toBe(true);
    expect(guard.size).toBe(data.length);
    expect(guard.computed).toBe(crc32c(data));
    expect(expectedCalls).toBe(1);
  });

  it('holds the last chunk back: a wrong checksum reports BadDigest and the body never completes', async () => {
    const data = Buffer.from('payload that will not match');
    const { source, result } = setup({
      contentLength: data.length,
      checksum: { algorithm: 'CRC32C', expected: () => crc32c(Buffer.from('other')) },
    });
    source.write(data.subarray(0, 10));
    source.end(data.subarray(10));
    const { how, data: got } = await result;
    expect(how).toMatchObject({ err: { code: 'BadDigest' } });
    expect(got.length).toBeLessThan(data.length);
  });

  it('reports a Content-MD5 mismatch as BadDigest, short of the full body', async () => {
    const data = Buffer.from('md5 checked');
    const { source, result } = setup({
      contentLength: data.length,
      contentMD5: createHash('md5').update('something else').digest('base64'),
    });
    source.end(data);
    const { how, data: got } = await result;
    expect(how).toMatchObject({ err: { code: 'BadDigest' } });
    expect(got.length).toBe(0);
  });

  it('reports a short body and a long body as IncompleteBody', async () => {
    const short = setup({ contentLength: 10 });
    short.source.end(Buffer.from('abc'));
    expect((await short.result).how).toMatchObject({ err: { code: 'IncompleteBody' } });

    const long = setup({ contentLength: 2 });
    long.source.end(Buffer.from('abcdef'));
    expect((await long.result).how).toMatchObject({ err: { code: 'IncompleteBody' } });
  });

  it('reports a client body that breaks off, without destroying the client stream', async () => {
    const { source, result } = setup({ contentLength: 100 });
    source.write(Buffer.alloc(10));
    const broken = new Error('client went away');
    source.destroy(broken);
    const { how } = await result;
    expect(how).toEqual({ err: broken });
  });
});
