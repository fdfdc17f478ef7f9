// decodeBody on plain bodies, in memory and over a real HTTP connection: pass-through, the
// signed payload hash, short bodies, and a verification failure that still lets the server answer.
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { type IncomingMessage, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { isS3Error } from '@vgwrdma/s3-backend';
import { describe, expect, it } from 'vitest';
import type { PayloadMode } from '../auth/types.js';
import { decodeBody } from './decode-body.js';
import { type Collected, collect } from './test-support/collect.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function decodeMemory(parts: Buffer[], headers: Record<string, string>, payload: PayloadMode) {
  const decoded = decodeBody(Readable.from(parts), headers, payload);
  return { decoded, done: collect(decoded.stream) };
}

describe('plain bodies', () => {
  it('pass through untouched for none and unsigned, reporting Content-Length', async () => {
    const data = randomBytes(100_000);
    for (const payload of [{ kind: 'none' }, { kind: 'unsigned' }] as const) {
      const { decoded, done } = decodeMemory([data.subarray(0, 10), data.subarray(10)], { 'content-length': String(data.length) }, payload);
      expect(decoded.decodedLength).toBe(data.length);
      const result = await done;
      expect(result.error).toBeUndefined();
      expect(result.data.equals(data)).toBe(true);
      expect(decoded.trailer('x-amz-checksum-crc32')).toBeUndefined();
    }
  });

  it('verify the signed payload hash', async () => {
    const data = randomBytes(70_000);
    const ok = await decodeMemory([data], { 'content-length': String(data.length) }, { kind: 'signed', sha256: sha(data) }).done;
    expect(ok.error).toBeUndefined();
    expect(ok.ended).toBe(true);

    const bad = await decodeMemory([data], { 'content-length': String(data.length) }, { kind: 'signed', sha256: sha(Buffer.from('x')) }).done;
    expect(bad.error?.code).toBe('XAmzContentSHA256Mismatch');
    expect(bad.ended).toBe(false);
  });

  it('verify the empty-body hash', async () => {
    const empty = Buffer.alloc(0);
    const ok = await decodeMemory([], { 'content-length': '0' }, { kind: 'signed', sha256: sha(empty) }).done;
    expect(ok.ended).toBe(true);
  });

  it('fail with IncompleteBody when the source closes without ending or erroring', async () => {
    const source = new Readable({ read() {} });
    const decoded = decodeBody(source, { 'content-length': '100' }, { kind: 'unsigned' });
    const done = collect(decoded.stream);
    source.push(Buffer.alloc(10));
    setImmediate(() => source.destroy());
    const result = await done;
    expect(result.error?.code).toBe('IncompleteBody');
    expect(result.ended).toBe(false);
  });

  it('fail with IncompleteBody when fewer bytes than Content-Length arrive', async () => {
    const result = await decodeMemory([Buffer.alloc(10)], { 'content-length': '11' }, { kind: 'unsigned' }).done;
    expect(result.error?.code).toBe('IncompleteBody');
    expect(result.error?.message).toBe('You did not provide the number of bytes specified by the Content-Length HTTP header');
    expect(result.ended).toBe(false);
  });
});

/** A one-request server that decodes the body and reports what the decoder saw. */
async function withServer(payload: PayloadMode, client: (port: number) => Promise<void>): Promise<Collected> {
  let resolveSeen: (c: Collected) => void = () => {};
  const seen = new Promise<Collected>((r) => {
    resolveSeen = r;
  });
  const server = createServer((req: IncomingMessage, res) => {
    const decoded = decodeBody(req, req.headers, payload);
    void collect(decoded.stream).then((result) => {
      resolveSeen(result);
      if (res.destroyed) return;
      const error: unknown = result.error;
      const status = isS3Error(error) ? error.status : 200;
      res.writeHead(status, { 'content-length': '2', connection: 'close' }).end('ok');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    await client((server.address() as AddressInfo).port);
    return await seen;
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('plain bodies over HTTP', () => {
  it('fail with IncompleteBody when the client hangs up early', async () => {
    const result = await withServer({ kind: 'unsigned' }, (port) => {
      const req = request({ port, host: '127.0.0.1', method: 'PUT', path: '/b/k', headers: { 'content-length': '100000' } });
      req.on('error', () => {});
      req.write(Buffer.alloc(50_000, 1), () => setTimeout(() => req.destroy(), 50));
      return Promise.resolve();
    });
    expect(result.error?.code).toBe('IncompleteBody');
    expect(result.ended).toBe(false);
  });

  it('leave the connection usable to answer a hash mismatch', async () => {
    const data = randomBytes(200_000);
    let status = 0;
    const result = await withServer({ kind: 'signed', sha256: sha(Buffer.from('other')) }, async (port) => {
      const req = request({ port, host: '127.0.0.1', method: 'PUT', path: '/b/k', headers: { 'content-length': String(data.length) } });
      req.end(data);
      const [res] = (await once(req, 'response')) as [IncomingMessage];
      status = res.statusCode ?? 0;
      res.resume();
    });
    expect(result.error?.code).toBe('XAmzContentSHA256Mismatch');
    expect(status).toBe(400);
  });
});
