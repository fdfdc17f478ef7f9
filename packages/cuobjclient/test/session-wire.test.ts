// Session against a scripted HTTP server with a real S3Client: what goes on the wire (signed
// token, empty body, checksums) and every branch of reply validation and fallback.

import { randomFillSync } from 'node:crypto';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CuObjErrorCode, Session } from '../src/index.js';
import { crc32Base64, crc32cBase64 } from './crc-oracle.js';
import { codeOf, errorOf } from './cuobj-errors.js';
import { type Answer, ReplyServer, s3ErrorXml, signedHeaders } from './reply-server.js';

const SIZE = 64 * 1024;
const ok = (reply = '200', bytes = String(SIZE)): Record<string, string> => ({
  'x-amz-rdma-reply': reply,
  'x-amz-rdma-bytes-transferred': bytes,
  'x-amz-rdma-bytes': bytes,
  etag: '"e1"',
});

describe('Session on the wire', () => {
  let server: ReplyServer;
  let session: Session;
  let fallback: Session;

  beforeAll(async () => {
    server = await ReplyServer.start();
    session = await Session.open({ size: SIZE, checksum: 'crc32c' });
    fallback = await Session.open({ size: SIZE, fallback: 'http' });
    randomFillSync(session.buffer);
    randomFillSync(fallback.buffer);
  });
  afterAll(async () => {
    session?.close();
    fallback?.close();
    await server?.close();
  });

  describe('PUT request', () => {
    it('signs the token, sends an empty body with Content-Length 0 and only our CRC32C over the raw buffer', async () => {
      server.reset(() => ({ status: 200, headers: ok() }));
      // Default SDK settings (WHEN_SUPPORTED) would add a CRC32 of the empty body: it must not reach the wire.
      const res = await session.upload(server.client(), 'bkt', 'obj');
      expect(res).toMatchObject({
        via: 'rdma',
        bytes: SIZE,
        httpStatus: 200,
        etag: '"e1"',
        rdmaReply: '200',
      });
      const [req] = server.requests;
      expect(req?.method).toBe('PUT');
      expect(req?.path.split('?')[0]).toBe('/bkt/obj');
      expect(req?.headers['content-length']).toBe('0');
      expect(req?.body.length).toBe(0);
      expect(req?.headers['x-amz-content-sha256']).toBe('UNSIGNED-PAYLOAD');
      expect(signedHeaders(req?.headers ?? {})).toContain('x-amz-rdma-token');
      expect(signedHeaders(req?.headers ?? {})).toContain('x-amz-checksum-crc32c');
      expect(req?.headers['x-amz-checksum-crc32c']).toBe(crc32cBase64(session.buffer));
      expect(req?.headers['x-amz-checksum-crc32']).toBeUndefined();
      expect(req?.headers['x-amz-sdk-checksum-algorithm']).toBeUndefined();
      const token = parseRdmaToken(String(req?.headers['x-amz-rdma-token']));
      expect(token.length).toBe(SIZE);
    });

    it('accepts reply 204 on a PUT, as the original vgwrdma gateway may answer', async () => {
      server.reset(() => ({ status: 200, headers: ok('204') }));
      const res = await session.upload(server.client(), 'bkt', 'obj');
      expect(res).toMatchObject({ via: 'rdma', bytes: SIZE, rdmaReply: '204' });
    });

    it('copies a source of the session size into the buffer before sending', async () => {
      server.reset(() => ({ status: 200, headers: ok() }));
      const src = randomFillSync(new Uint8Array(SIZE));
      await session.upload(server.client(), 'bkt', 'obj', src);
      expect(Buffer.compare(Buffer.from(session.buffer), Buffer.from(src))).toBe(0);
      expect(server.requests[0]?.headers['x-amz-checksum-crc32c']).toBe(crc32cBase64(src));
    });
  });

  describe('PUT reply validation', () => {
    const cases: [string, Answer, CuObjErrorCode][] = [
      [
        '200 without x-amz-rdma-reply (gateway ignored the token)',
        { status: 200, headers: { etag: '"x"' } },
        'VGW_ERR_CUOBJ_NO_RDMA_REPLY',
      ],
      ['reply 206 on a PUT', { status: 200, headers: ok('206') }, 'VGW_ERR_CUOBJ_BAD_REPLY'],
      ['reply 501 on a 200', { status: 200, headers: ok('501') }, 'VGW_ERR_CUOBJ_BAD_REPLY'],
      [
        'short byte count',
        { status: 200, headers: ok('200', String(SIZE - 1)) },
        'VGW_ERR_CUOBJ_BYTES_MISMATCH',
      ],
      [
        'no byte count',
        { status: 200, headers: { 'x-amz-rdma-reply': '200' } },
        'VGW_ERR_CUOBJ_BYTES_MISMATCH',
      ],
      [
        'the two byte headers disagree',
        { status: 200, headers: { ...ok(), 'x-amz-rdma-bytes': String(SIZE + 1) } },
        'VGW_ERR_CUOBJ_BYTES_MISMATCH',
      ],
      [
        '501 declined, no fallback',
        {
          status: 501,
          headers: { 'x-amz-rdma-reply': '501' },
          body: s3ErrorXml('NotImplemented', 'RDMA declined'),
        },
        'VGW_ERR_CUOBJ_DECLINED',
      ],
      [
        '500 after acceptance (no reply header)',
        { status: 500, body: s3ErrorXml('InternalError', 'transfer failed') },
        'VGW_ERR_CUOBJ_GATEWAY_ERROR',
      ],
      [
        '403 with a reply header',
        { status: 403, headers: { 'x-amz-rdma-reply': '403' }, body: s3ErrorXml('AccessDenied', 'no') },
        'VGW_ERR_CUOBJ_BAD_REPLY',
      ],
    ];
    for (const [name, answer, code] of cases) {
      it(`${name} → ${code}`, async () => {
        server.reset(() => answer);
        expect(await codeOf(session.upload(server.client(), 'bkt', 'obj'))).toBe(code);
        expect(server.requests.length).toBe(1); // never re-sent without fallback
      });
    }

    it('the error says what the gateway answered', async () => {
      server.reset(() => ({ status: 500, body: s3ErrorXml('InternalError', 'transfer failed') }));
      const e = await errorOf(session.upload(server.client(), 'bkt', 'obj'));
      expect(e.gateway).toMatchObject({ httpStatus: 500, errorCode: 'InternalError', requestId: 'req-1' });
      expect(e.gateway?.rdmaReply).toBeUndefined();
      expect(e.message).toMatch(/HTTP 500, no x-amz-rdma-reply, InternalError/);

      server.reset(() => ({ status: 200, headers: ok('200', '5') }));
      const m = await errorOf(session.upload(server.client(), 'bkt', 'obj'));
      expect(m.gateway).toMatchObject({ httpStatus: 200, rdmaReply: '200', bytes: '5' });
      expect(m.message).toMatch(/moved 5 .* expected 65536/);
    });

    it("fallback 'http': a declined PUT is re-sent with the buffer as the body and no token", async () => {
      server.reset((_req, i) =>
        i === 0
          ? {
              status: 501,
              headers: { 'x-amz-rdma-reply': '501' },
              body: s3ErrorXml('NotImplemented', 'declined'),
            }
          : { status: 200, headers: { etag: '"http"' } },
      );
      const res = await fallback.upload(
        server.client({ requestChecksumCalculation: 'WHEN_REQUIRED' }),
        'bkt',
        'obj',
      );
      expect(res).toMatchObject({ via: 'http', bytes: SIZE, etag: '"http"', rdmaReply: undefined });
      expect(server.requests.length).toBe(2);
      const resent = server.requests[1];
      expect(resent?.headers['x-amz-rdma-token']).toBeUndefined();
      expect(resent?.headers['content-length']).toBe(String(SIZE));
      expect(Buffer.compare(resent?.body ?? Buffer.alloc(0), Buffer.from(fallback.buffer))).toBe(0);
    });

    it("fallback 'http' does not hide a missing reply on PUT (a 0-byte object may have been stored)", async () => {
      server.reset(() => ({ status: 200, headers: { etag: '"x"' } }));
      expect(await codeOf(fallback.upload(server.client(), 'bkt', 'obj'))).toBe(
        'VGW_ERR_CUOBJ_NO_RDMA_REPLY',
      );
      expect(server.requests.length).toBe(1);
    });
  });

  describe('GET', () => {
    it('signs a token whose capacity is the session size; reply 200, 204 and 206 succeed; dst receives the buffer', async () => {
      for (const reply of ['200', '204', '206']) {
        server.reset(() => ({
          status: reply === '206' ? 206 : 200,
          headers: { ...ok(reply), 'content-range': `bytes 0-${SIZE - 1}/${SIZE}` },
        }));
        const dst = new Uint8Array(SIZE);
        const res = await session.download(server.client(), 'bkt', 'obj', dst);
        expect(res).toMatchObject({ via: 'rdma', bytes: SIZE, rdmaReply: reply });
        expect(Buffer.compare(Buffer.from(dst), Buffer.from(session.buffer))).toBe(0);
        const req = server.requests[0];
        expect(req?.method).toBe('GET');
        expect(signedHeaders(req?.headers ?? {})).toContain('x-amz-rdma-token');
        expect(parseRdmaToken(String(req?.headers['x-amz-rdma-token'])).length).toBe(SIZE);
      }
    });

    it('ignores object checksum headers on an RDMA reply even when the SDK validates responses', async () => {
      // The object's CRC32 would not match the empty HTTP body; with WHEN_SUPPORTED the SDK would fail.
      server.reset(() => ({
        status: 200,
        headers: { ...ok(), 'x-amz-checksum-crc32': crc32Base64(session.buffer) },
      }));
      const res = await session.download(server.client(), 'bkt', 'obj');
      expect(res.via).toBe('rdma');
      expect(server.requests[0]?.headers['x-amz-checksum-mode']).toBe('ENABLED'); // the SDK asked; we left it
    });

    it('with checksum set, asks for the object checksum and checks the RDMA data against it', async () => {
      const right = crc32cBase64(session.buffer);
      server.reset(() => ({ status: 200, headers: { ...ok(), 'x-amz-checksum-crc32c': right } }));
      expect(
        (await session.download(server.client({ responseChecksumValidation: 'WHEN_REQUIRED' }), 'bkt', 'obj'))
          .via,
      ).toBe('rdma');
      expect(server.requests[0]?.headers['x-amz-checksum-mode']).toBe('ENABLED');
      server.reset(() => ({ status: 200, headers: { ...ok(), 'x-amz-checksum-crc32c': 'AAAAAA==' } }));
      const e = await errorOf(session.download(server.client(), 'bkt', 'obj'));
      expect(e.code).toBe('VGW_ERR_CUOBJ_CHECKSUM_MISMATCH');
      expect(e.message).toContain(`the object's is AAAAAA==`);
      // A composite (multipart) value cannot be checked against the whole buffer: accepted.
      server.reset(() => ({ status: 200, headers: { ...ok(), 'x-amz-checksum-crc32c': 'AAAAAA==-3' } }));
      expect((await session.download(server.client(), 'bkt', 'obj')).via).toBe('rdma');
    });

    const cases: [string, Answer, CuObjErrorCode][] = [
      ['no reply header', { status: 200, body: new Uint8Array(SIZE) }, 'VGW_ERR_CUOBJ_NO_RDMA_REPLY'],
      [
        'declined (501) without fallback',
        { status: 200, headers: { 'x-amz-rdma-reply': '501' }, body: new Uint8Array(SIZE) },
        'VGW_ERR_CUOBJ_DECLINED',
      ],
      ['reply 500', { status: 200, headers: ok('500') }, 'VGW_ERR_CUOBJ_BAD_REPLY'],
      ['short byte count', { status: 200, headers: ok('200', '1') }, 'VGW_ERR_CUOBJ_BYTES_MISMATCH'],
      [
        '404 NoSuchKey',
        { status: 404, body: s3ErrorXml('NoSuchKey', 'nope') },
        'VGW_ERR_CUOBJ_GATEWAY_ERROR',
      ],
      [
        '400 refusal from the middleware',
        { status: 400, body: s3ErrorXml('InvalidArgument', 'bad token') },
        'VGW_ERR_CUOBJ_GATEWAY_ERROR',
      ],
    ];
    for (const [name, answer, code] of cases) {
      it(`${name} → ${code}`, async () => {
        server.reset(() => answer);
        expect(await codeOf(session.download(server.client(), 'bkt', 'obj'))).toBe(code);
      });
    }

    it("fallback 'http': a declined GET's body lands in dst (or the buffer), no second request", async () => {
      const object = randomFillSync(Buffer.alloc(SIZE));
      server.reset(() => ({
        status: 200,
        headers: { 'x-amz-rdma-reply': '501', etag: '"o"' },
        body: object,
      }));
      const dst = new Uint8Array(SIZE);
      const res = await fallback.download(server.client(), 'bkt', 'obj', dst);
      expect(res).toMatchObject({ via: 'http', bytes: SIZE, rdmaReply: '501' });
      expect(Buffer.compare(Buffer.from(dst), object)).toBe(0);
      await fallback.download(server.client(), 'bkt', 'obj');
      expect(Buffer.compare(Buffer.from(fallback.buffer), object)).toBe(0);
      expect(server.requests.length).toBe(2);
    });

    it("fallback 'http': a body of the wrong length is an error", async () => {
      server.reset(() => ({
        status: 200,
        headers: { 'x-amz-rdma-reply': '501' },
        body: new Uint8Array(SIZE - 3),
      }));
      expect(await codeOf(fallback.download(server.client(), 'bkt', 'obj'))).toBe(
        'VGW_ERR_CUOBJ_BODY_LENGTH',
      );
    });
  });

  describe('misuse', () => {
    it('src/dst of another length is refused before anything is sent', async () => {
      server.reset(() => ({ status: 200, headers: ok() }));
      const e = await errorOf(session.upload(server.client(), 'bkt', 'obj', new Uint8Array(SIZE + 1)));
      expect(e.code).toBe('VGW_ERR_CUOBJ_SIZE_MISMATCH');
      expect(e.message).toMatch(/65537 bytes; this session moves exactly 65536/);
      expect(await codeOf(session.download(server.client(), 'bkt', 'obj', new Uint8Array(1)))).toBe(
        'VGW_ERR_CUOBJ_SIZE_MISMATCH',
      );
      expect(server.requests.length).toBe(0);
    });

    it('a second transfer while one is in flight is refused; the first completes and the session stays usable', async () => {
      let release = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      server.reset((_r, i) => ({ status: 200, headers: ok(), ...(i === 0 ? { wait: held } : {}) }));
      const s3 = server.client();
      const first = session.upload(s3, 'bkt', 'a');
      expect(await codeOf(session.upload(s3, 'bkt', 'b'))).toBe('VGW_ERR_CUOBJ_SESSION_BUSY');
      expect(await codeOf(session.download(s3, 'bkt', 'b'))).toBe('VGW_ERR_CUOBJ_SESSION_BUSY');
      expect(() => session.close()).toThrow(expect.objectContaining({ code: 'VGW_ERR_CUOBJ_SESSION_BUSY' }));
      release();
      expect((await first).via).toBe('rdma');
      expect(server.requests.map((r) => r.path.split('?')[0])).toEqual(['/bkt/a']);
      expect((await session.download(s3, 'bkt', 'a')).via).toBe('rdma');
    });

    it('await using waits for the transfer in flight, then closes', async () => {
      let release = () => {};
      const held = new Promise<void>((r) => {
        release = r;
      });
      server.reset(() => ({ status: 200, headers: ok(), wait: held }));
      let s: Session | undefined;
      let pending: Promise<unknown> | undefined;
      {
        await using scoped = await Session.open({ size: SIZE });
        s = scoped;
        pending = scoped.upload(server.client(), 'bkt', 'c');
        setTimeout(release, 50);
      }
      expect(s?.closed).toBe(true);
      expect(((await pending) as { via: string }).via).toBe('rdma');
      expect(() => s?.buffer).toThrow(expect.objectContaining({ code: 'VGW_ERR_CUOBJ_SESSION_CLOSED' }));
      expect(await codeOf(s?.upload(server.client(), 'bkt', 'c') ?? Promise.resolve())).toBe(
        'VGW_ERR_CUOBJ_SESSION_CLOSED',
      );
    });
  });
});
