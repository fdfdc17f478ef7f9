import { isS3Error } from '@vgwrdma/backend-contract';
import { formatRdmaToken, ipv4MappedGid, parseRdmaToken, type RdmaDescriptor } from '@vgwrdma/rdma-protocol';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { type CuEnv, cuMiddleware } from '../src/cu-middleware.js';

const ADDR = 0x7f12_3456_7000n;
/** The fields of TOKEN (the suffixed-override test formats other tokens from them). */
const TOKEN_FIELDS = {
  addr: ADDR,
  size: 0x10_0000,
  rkey: 0xabcd_0123,
  lid: 0,
  dctn: 40_123,
  gidPresent: true,
  gid: ipv4MappedGid('127.0.0.1'),
};
const TOKEN = formatRdmaToken(TOKEN_FIELDS);
const SAMPLE_RC = 'rc:0000000000001000:00001000:abcd';

/** The window a descriptor names, flattened for comparisons. */
function windowOf(d: RdmaDescriptor | undefined) {
  return (
    d && { token: d.token.base, remoteAddress: d.token.remoteAddr, size: d.token.length, scheme: d.scheme }
  );
}

/** A small app: request id, the middleware, then a handler that reports what it saw. */
function app(options: Parameters<typeof cuMiddleware>[0] = {}) {
  const a = new Hono<CuEnv>();
  let seen: { called: boolean; rdma: RdmaDescriptor | undefined } = { called: false, rdma: undefined };
  a.use(async (c, next) => {
    c.set('requestId', 'req-123');
    await next();
  });
  a.use(cuMiddleware(options));
  a.all('*', (c) => {
    seen = { called: true, rdma: c.get('rdma') };
    return c.text('handled');
  });
  return {
    app: a,
    send: async (headers: Record<string, string>, init: RequestInit = {}) => {
      seen = { called: false, rdma: undefined };
      const res = await a.request('/bucket/key', { method: 'PUT', ...init, headers });
      return { res, body: await res.text(), seen };
    },
  };
}

/** Asserts an S3 error document with `code`, and that no RDMA reply header went out. */
function expectRefusal(
  r: { res: Response; body: string; seen: { called: boolean } },
  status: number,
  code: string,
) {
  expect(r.res.status).toBe(status);
  expect(r.res.headers.get('content-type')).toBe('application/xml');
  expect(r.body).toContain(`<Code>${code}</Code>`);
  expect(r.body).toContain('<RequestId>req-123</RequestId>');
  expect(r.body).toContain('<Resource>/bucket/key</Resource>');
  expect(r.res.headers.get('x-amz-request-id')).toBe('req-123');
  expect(r.res.headers.get('x-amz-rdma-reply')).toBeNull();
  expect(r.seen.called).toBe(false);
}

describe('cuMiddleware', () => {
  it('passes requests without RDMA headers through untouched', async () => {
    const { send } = app();
    const r = await send({ 'content-length': '5' }, { body: 'hello' });
    expect(r.res.status).toBe(200);
    expect(r.body).toBe('handled');
    expect(r.seen).toEqual({ called: true, rdma: undefined });
  });

  it('parses an 81-char DC v1 token into a typed descriptor', async () => {
    const r = await app().send({ 'x-amz-rdma-token': TOKEN, 'content-length': '0' });
    expect(r.res.status).toBe(200);
    expect(windowOf(r.seen.rdma)).toEqual({
      token: TOKEN,
      remoteAddress: ADDR,
      size: 0x10_0000,
      scheme: 'token',
    });
  });

  it('accepts a token on a request without Content-Length (a GET)', async () => {
    const r = await app().send({ 'x-amz-rdma-token': TOKEN }, { method: 'GET' });
    expect(r.seen.rdma?.token.length).toBe(0x10_0000);
  });

  it('applies the suffixed override, with or without the trailing ";"', async () => {
    for (const semicolon of [false, true]) {
      const t = formatRdmaToken(TOKEN_FIELDS, { override: { addr: ADDR + 4096n, size: 512n }, semicolon });
      expect(t.endsWith(';')).toBe(semicolon);
      const r = await app().send({ 'x-amz-rdma-token': t, 'content-length': '0' });
      expect(windowOf(r.seen.rdma)).toEqual({
        token: TOKEN,
        remoteAddress: ADDR + 4096n,
        size: 512,
        scheme: 'token',
      });
    }
    // zero suffix fields mean "no override"
    const zero = formatRdmaToken(TOKEN_FIELDS, { override: { addr: 0n, size: 0n } });
    const r = await app().send({ 'x-amz-rdma-token': zero });
    expect(windowOf(r.seen.rdma)).toMatchObject({ token: TOKEN, remoteAddress: ADDR, size: 0x10_0000 });
  });

  it('records x-amz-rdma-agent: cuobj, and refuses any other agent value with 400', async () => {
    const ok = await app().send({ 'x-amz-rdma-token': TOKEN, 'x-amz-rdma-agent': 'cuobj' });
    expect(ok.seen.rdma?.agent).toBe('cuobj');
    const none = await app().send({ 'x-amz-rdma-token': TOKEN });
    expect(none.seen.rdma && 'agent' in none.seen.rdma).toBe(false);
    for (const agent of ['noobaa', 'CUOBJ', '']) {
      expectRefusal(
        await app().send({ 'x-amz-rdma-token': TOKEN, 'x-amz-rdma-agent': agent }),
        400,
        'InvalidArgument',
      );
    }
    // the agent alone (no token) is no RDMA request
    const alone = await app().send({ 'x-amz-rdma-agent': 'cuobj', 'content-length': '0' });
    expect(alone.seen).toEqual({ called: true, rdma: undefined });
  });

  it('parses the legacy X-CuObj-* trio with decimal numbers', async () => {
    const r = await app().send({
      'X-CuObj-RDMA-Descr': TOKEN,
      'X-CuObj-Content-Length': '4096',
      'X-CuObj-Remote-Buf-Start': '18446744073709547520', // 2^64 - 4096: the window ends at 2^64
    });
    expect(windowOf(r.seen.rdma)).toEqual({
      token: TOKEN,
      remoteAddress: 2n ** 64n - 4096n,
      size: 4096,
      scheme: 'legacy',
    });
  });

  it('refuses a window whose address + size wraps past 2^64 (400), legacy trio or token override', async () => {
    const legacy = await app().send({
      'X-CuObj-RDMA-Descr': TOKEN,
      'X-CuObj-Content-Length': '4096',
      'X-CuObj-Remote-Buf-Start': '18446744073709551615',
    });
    expectRefusal(legacy, 400, 'InvalidArgument');
    expect(legacy.body).toContain('wraps past the end of the 64-bit address space');
    const override = `${TOKEN}:fffffffffffff000:0000000000001001`;
    expectRefusal(await app().send({ 'x-amz-rdma-token': override }), 400, 'InvalidArgument');
  });

  it('refuses a softnic token whose port (DCTN) is above 65535 with 400; cuobj takes 24-bit DCTNs', async () => {
    const wide = formatRdmaToken({ ...parseRdmaToken(TOKEN), dctn: 0x1_0000 });
    const r = await app().send({ 'x-amz-rdma-token': wide });
    expectRefusal(r, 400, 'InvalidArgument');
    expect(r.body).toContain('above 65535');
    expectRefusal(
      await app({ transport: 'softnic' }).send({ 'x-amz-rdma-token': wide }),
      400,
      'InvalidArgument',
    );
    expect((await app({ transport: 'cuobj' }).send({ 'x-amz-rdma-token': wide })).seen.called).toBe(true);
    const edge = formatRdmaToken({ ...parseRdmaToken(TOKEN), dctn: 65_535 });
    expect((await app().send({ 'x-amz-rdma-token': edge })).seen.rdma?.token.base).toBe(edge);
  });

  it('lets the legacy trio win when both schemes are present', async () => {
    const r = await app().send({
      'x-amz-rdma-token': TOKEN,
      'x-cuobj-rdma-descr': TOKEN,
      'x-cuobj-content-length': '100',
      'x-cuobj-remote-buf-start': (ADDR + 200n).toString(),
    });
    expect(windowOf(r.seen.rdma)).toEqual({
      token: TOKEN,
      remoteAddress: ADDR + 200n,
      size: 100,
      scheme: 'legacy',
    });
    // ... including when the legacy numbers are bad and the token is fine
    const bad = await app().send({
      'x-amz-rdma-token': TOKEN,
      'x-cuobj-rdma-descr': TOKEN,
      'x-cuobj-content-length': '0x10',
      'x-cuobj-remote-buf-start': '1',
    });
    expectRefusal(bad, 400, 'InvalidArgument');
  });

  it('refuses bad legacy numbers and an incomplete trio with 400 InvalidArgument', async () => {
    const trio = (length: string, start: string) => ({
      'x-cuobj-rdma-descr': TOKEN,
      'x-cuobj-content-length': length,
      'x-cuobj-remote-buf-start': start,
    });
    const cases: Record<string, string>[] = [
      trio('0', '4096'),
      trio('-1', '4096'),
      trio('0x100', '4096'),
      trio('1e3', '4096'),
      trio('', '4096'),
      trio('9007199254740993', '4096'),
      trio('100', '18446744073709551616'),
      trio('100', 'ff'),
      trio('100', ''),
      { 'x-cuobj-rdma-descr': TOKEN, 'x-cuobj-content-length': '100' },
      { 'x-cuobj-remote-buf-start': '100' },
      { ...trio('100', '4096'), 'x-cuobj-rdma-descr': TOKEN.slice(1) },
    ];
    for (const h of cases) expectRefusal(await app().send(h), 400, 'InvalidArgument');
  });

  it('answers RC-style tokens with 501 NotImplemented and no reply header (either scheme)', async () => {
    expectRefusal(await app().send({ 'x-amz-rdma-token': SAMPLE_RC }), 501, 'NotImplemented');
    expectRefusal(
      await app().send({ 'x-amz-rdma-token': `00000000000000001${TOKEN.slice(16)}` }),
      501,
      'NotImplemented',
    );
    expectRefusal(
      await app().send({
        'x-cuobj-rdma-descr': SAMPLE_RC,
        'x-cuobj-content-length': '1',
        'x-cuobj-remote-buf-start': '1',
      }),
      501,
      'NotImplemented',
    );
  });

  it('answers malformed tokens with 400 InvalidArgument and no reply header', async () => {
    const bad = [
      '',
      TOKEN.slice(0, -1),
      `${TOKEN};`,
      TOKEN.toUpperCase(),
      TOKEN.replace(/:00100000:/, ':00000000:'), // size 0
      `${TOKEN}:0000000000001000:00000000000010`,
    ];
    for (const t of bad) expectRefusal(await app().send({ 'x-amz-rdma-token': t }), 400, 'InvalidArgument');
  });

  it('refuses a token together with a non-empty body (400), by any length header', async () => {
    const withBody = await app().send(
      { 'x-amz-rdma-token': TOKEN, 'content-length': '5' },
      { body: 'hello' },
    );
    expectRefusal(withBody, 400, 'InvalidArgument');
    expectRefusal(
      await app().send({
        'x-amz-rdma-token': TOKEN,
        'x-amz-decoded-content-length': '10',
        'content-length': '180',
      }),
      400,
      'InvalidArgument',
    );
    expectRefusal(
      await app().send({ 'x-amz-rdma-token': TOKEN, 'transfer-encoding': 'chunked' }),
      400,
      'InvalidArgument',
    );
    const empty = await app().send({
      'x-amz-rdma-token': TOKEN,
      'x-amz-decoded-content-length': '0',
      'content-length': '86',
    });
    expect(empty.seen.rdma?.token.length).toBe(0x10_0000);
  });

  it('answers HEAD refusals without a body', async () => {
    const { app: a } = app();
    const res = await a.request('/bucket/key', { method: 'HEAD', headers: { 'x-amz-rdma-token': 'nope' } });
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('');
    expect(res.headers.get('x-amz-rdma-reply')).toBeNull();
  });

  it("in 'throw' mode hands the S3Error to the app's onError", async () => {
    const { app: a } = app({ errors: 'throw' });
    a.onError((err, c) => c.text(isS3Error(err) ? `${err.code}/${err.status}` : 'other', 418));
    const res = await a.request('/b/k', { method: 'PUT', headers: { 'x-amz-rdma-token': SAMPLE_RC } });
    expect(res.status).toBe(418);
    expect(await res.text()).toBe('NotImplemented/501');
  });
});
