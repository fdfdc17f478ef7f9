// The --webui listener over raw HTTP against the built app: the console's files with their
// security headers (CSP without inline script or eval, X-Frame-Options DENY, no referrer), the
// config document, the stats endpoint only for SigV4-signed admin requests (unsigned, unsigned
// payload, wrong secret and non-admin all refused; the admin's answered), HTTPS with the gateway's
// own pair, and the S3 port's CORS:
// the console's origin gets its preflights answered, another origin does not.
import { get as httpsGet } from 'node:https';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import {
  type Credentials,
  corsPreflight,
  ROOT_CREDENTIALS,
  sceneTls,
  signHeaders,
  startScene,
} from '@vgwrdma/test-kit';
import { sceneRef, sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { createUser, webuiUrl } from './helpers/webui.js';

const USER = { access: 'webui-plain', secret: 'webui-plain-secret' };
const test = sceneTest({ iam: true, globalArgs: ['--webui', '127.0.0.1:0'] });

describe('--webui listener', () => {
  const the = sceneRef(test);
  let console_: string;

  test.beforeAll(async ({ scene }) => {
    console_ = webuiUrl(scene.gw.stdout());
    expect(await createUser(scene.url, USER)).toBe(201);
  });

  it('serves the console with a strict CSP, DENY framing and no referrer', async () => {
    const res = await fetch(`${console_}/`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<div id="app"></div>');
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // every script is a file
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain(new URL(the.gw.url).origin);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    const js = await fetch(`${console_}/${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    // Paths outside the bundle are not files of the host.
    expect((await fetch(`${console_}/assets/..%2f..%2fpackage.json`)).status).toBe(404);
  });

  it('tells the page where the S3 API is, and nothing secret', async () => {
    const res = await fetch(`${console_}/api/config.json`);
    const config = (await res.json()) as { s3: { port: number }; region: string };
    expect(config.s3.port).toBe(the.gw.port);
    expect(config.region).toBe('us-east-1');
    expect(JSON.stringify(config)).not.toContain(ROOT_CREDENTIALS.secret);
  });

  it('answers the stats to a signed admin request only', async () => {
    const stats = `${console_}/api/stats`;
    const signed = (credentials: Credentials, payloadHash?: string) =>
      signHeaders({
        baseUrl: console_,
        credentials,
        method: 'GET',
        path: '/api/stats',
        ...(payloadHash === undefined ? {} : { payloadHash }),
      });
    // The attacks: no signature, an unsigned payload claim, a wrong secret, a non-admin account.
    const unsigned = await fetch(stats);
    expect(unsigned.status).toBe(403);
    const unsignedPayload = await fetch(stats, {
      headers: await signed(ROOT_CREDENTIALS, 'UNSIGNED-PAYLOAD'),
    });
    expect(unsignedPayload.status).toBe(403);
    const wrong = await fetch(stats, {
      headers: await signed({ ...ROOT_CREDENTIALS, secret: 'not-the-secret' }),
    });
    expect(((await wrong.json()) as { code: string }).code).toBe('SignatureDoesNotMatch');
    const user = await fetch(stats, { headers: await signed(USER) });
    expect(user.status).toBe(403);
    expect(((await user.json()) as { code: string }).code).toBe('XAdminAccessDenied');
    // The positive control: the root (admin) account reads the counters.
    const admin = await fetch(stats, { headers: await signed(ROOT_CREDENTIALS) });
    expect(admin.status).toBe(200);
    const body = (await admin.json()) as { requests: { total: number } };
    expect(body.requests.total).toBeGreaterThan(0);
  });

  it("answers CORS preflights for the console's origin only, on S3 and admin paths", async () => {
    const origin = new URL(console_).origin;
    const preflight = (path: string, from: string, method = 'PUT') =>
      corsPreflight(`${the.gw.url}${path}`, from, method, 'authorization,x-amz-date,x-amz-content-sha256');
    const ok = await preflight('/no-such-bucket/key', origin);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(origin);
    const admin = await preflight('/list-users', origin, 'PATCH');
    expect(admin.status).toBe(200);
    expect(admin.headers.get('access-control-allow-methods')).toContain('PATCH');
    // Another origin (same host, another port) gets nothing.
    await the.s3.send(new CreateBucketCommand({ Bucket: 'webui-cors' }));
    expect((await preflight('/webui-cors/key', origin)).status).toBe(200);
    const evil = await preflight('/webui-cors/key', 'http://127.0.0.1:1');
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("serves HTTPS with the gateway's own certificate when it has one", async () => {
    let caPem: Buffer = Buffer.alloc(0);
    const tlsScene = await startScene(async (dir) => {
      const tls = await sceneTls(dir, 'webui.vgwrdma.test');
      caPem = tls.caPem;
      return { globalArgs: [...tls.args, '--webui', '127.0.0.1:0'] };
    });
    try {
      const url = webuiUrl(tlsScene.gw.stdout());
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        httpsGet(`${url}/api/config.json`, { ca: [caPem] }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
        }).on('error', reject);
      });
      expect(answer.status).toBe(200);
      expect((JSON.parse(answer.body) as { s3: { scheme: string } }).s3.scheme).toBe('https');
    } finally {
      await tlsScene.stop();
    }
  });
});
