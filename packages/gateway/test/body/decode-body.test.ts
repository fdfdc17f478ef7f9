// decodeBody on plain bodies, in memory and over a real HTTP connection: pass-through, the
// signed payload hash, short bodies, and a verification failure that still lets the server answer.
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { Agent, createServer, type IncomingMessage, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { isS3Error } from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import type { PayloadMode } from '../../src/auth/types.js';
import { decodeBody } from '../../src/body/decode-body.js';
import { type Collected, collect } from '../../src/body/test-support/collect.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function decodeMemory(parts: Buffer[], headers: Record<string, string>, payload: PayloadMode) {
  const decoded = decodeBody(Readable.from(parts), headers, payload);
  return { decoded, done: collect(decoded.stream) };
}

describe('plain bodies', () => {
  it('pass through untouched for none and unsigned, reporting Content-Length', async () => {
    const data = randomBytes(100_000);
    for (const payload of [{ kind: 'none' }, { kind: 'unsigned' }] as const) {
      const { decoded, done } = decodeMemory(
        [data.subarray(0, 10), data.subarray(10)],
        { 'content-length': String(data.length) },
        payload,
      );
      expect(decoded.decodedLength).toBe(data.length);
      const result = await done;
      expect(result.error).toBeUndefined();
      expect(result.data.equals(data)).toBe(true);
      expect(decoded.trailer('x-amz-checksum-crc32')).toBeUndefined();
    }
  });

  it('verify the signed payload hash', async () => {
    const data = randomBytes(70_000);
    const ok = await decodeMemory(
      [data],
      { 'content-length': String(data.length) },
      { kind: 'signed', sha256: sha(data) },
    ).done;
    expect(ok.error).toBeUndefined();
    expect(ok.ended).toBe(true);

    const bad = await decodeMemory(
      [data],
      { 'content-length': String(data.length) },
      { kind: 'signed', sha256: sha(Buffer.from('x')) },
    ).done;
    expect(bad.error?.code).toBe('XAmzContentSHA256Mismatch');
    expect(bad.ended).toBe(false);
  });

  it('verify the signed payload hash of a large body (hashed off the main thread where it can be)', async () => {
    const data = randomBytes(6 * 1024 * 1024 + 3);
    const pieces = (b: Buffer) =>
      Array.from({ length: Math.ceil(b.length / 65_536) }, (_, i) =>
        b.subarray(i * 65_536, (i + 1) * 65_536),
      );
    const headers = { 'content-length': String(data.length) };
    const ok = await decodeMemory(pieces(data), headers, { kind: 'signed', sha256: sha(data) }).done;
    expect(ok.error).toBeUndefined();
    expect(ok.ended).toBe(true);
    expect(ok.data.equals(data)).toBe(true);

    const flipped = Buffer.from(data);
    flipped.writeUInt8(flipped.readUInt8(flipped.length - 100) ^ 1, flipped.length - 100); // one bit near the end
    const bad = await decodeMemory(pieces(flipped), headers, { kind: 'signed', sha256: sha(data) }).done;
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
    const result = await decodeMemory([Buffer.alloc(10)], { 'content-length': '11' }, { kind: 'unsigned' })
      .done;
    expect(result.error?.code).toBe('IncompleteBody');
    expect(result.error?.message).toBe(
      'You did not provide the number of bytes specified by the Content-Length HTTP header',
    );
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
      const req = request({
        port,
        host: '127.0.0.1',
        method: 'PUT',
        path: '/b/k',
        headers: { 'content-length': '100000' },
      });
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
      const req = request({
        port,
        host: '127.0.0.1',
        method: 'PUT',
        path: '/b/k',
        headers: { 'content-length': String(data.length) },
      });
      req.end(data);
      const [res] = (await once(req, 'response')) as [IncomingMessage];
      status = res.statusCode ?? 0;
      res.resume();
    });
    expect(result.error?.code).toBe('XAmzContentSHA256Mismatch');
    expect(status).toBe(400);
  });

  it('drain the rest of a refused body so a keep-alive connection serves the next request', async () => {
    const payload: PayloadMode = { kind: 'streaming-unsigned-trailer' };
    const answers: string[] = [];
    const server = createServer((req, res) => {
      const decoded = decodeBody(req, req.headers, payload);
      void collect(decoded.stream).then((result) => {
        const code = result.error?.code ?? 'OK';
        answers.push(code);
        res.writeHead(result.error ? 400 : 200, { 'content-length': String(code.length) }).end(code);
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const port = (server.address() as AddressInfo).port;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const put = (body: Buffer) =>
      new Promise<{ status: number; text: string; socket: unknown }>((resolve, reject) => {
        const req = request({
          agent,
          port,
          host: '127.0.0.1',
          method: 'PUT',
          path: '/b/k',
          headers: { 'content-length': String(body.length) },
        });
        req.on('error', reject);
        req.on('response', (res) => {
          const parts: Buffer[] = [];
          res.on('data', (p: Buffer) => parts.push(p));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              text: Buffer.concat(parts).toString(),
              socket: req.socket,
            }),
          );
        });
        req.end(body);
      });
    try {
      // A bad size line at the start, then 4 MiB the decoder never looks at.
      const first = await put(Buffer.concat([Buffer.from('zz\r\n'), Buffer.alloc(4 << 20, 1)]));
      const second = await put(Buffer.from('3\r\nabc\r\n0\r\n\r\n'));
      expect([first.status, first.text]).toEqual([400, 'InvalidChunkSizeError']);
      expect([second.status, second.text]).toEqual([200, 'OK']);
      expect(second.socket).toBe(first.socket); // the same connection carried both
    } finally {
      agent.destroy();
      server.closeAllConnections();
      server.close();
    }
  });
});
