// startGateway and signHeaders against the built app: the banner gives a working endpoint, a
// request signed with the root account is served, and one signed with a wrong secret is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type GatewayProcess,
  killAllChildren,
  ROOT_CREDENTIALS,
  removeDir,
  runMain,
  signHeaders,
  startGateway,
} from '../src/index.js';

let gw: GatewayProcess;

beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.stop();
  if (gw) await removeDir(gw.root);
  killAllChildren();
});

async function listBuckets(secret: string): Promise<{ status: number; body: string }> {
  const credentials = { access: ROOT_CREDENTIALS.access, secret };
  const headers = await signHeaders({ baseUrl: gw.url, credentials, method: 'GET', path: '/' });
  const res = await fetch(new URL('/', gw.url), { headers });
  return { status: res.status, body: await res.text() };
}

describe('startGateway + signHeaders', () => {
  it('learns a loopback endpoint from the banner', () => {
    expect(gw.url).toBe(`http://127.0.0.1:${gw.port}`);
    expect(gw.port).toBeGreaterThan(0);
    expect(gw.stdout()).toMatch(/endpoint:/);
  });

  it('a request signed with the root account is served', async () => {
    const { status, body } = await listBuckets(ROOT_CREDENTIALS.secret);
    expect(status).toBe(200);
    expect(body).toContain('<ListAllMyBucketsResult');
  });

  it('a request signed with another secret is refused', async () => {
    const { status, body } = await listBuckets('not-the-secret');
    expect(status).toBe(403);
    expect(body).toContain('<Code>SignatureDoesNotMatch</Code>');
  });

  it('stop() ends the process and reports how', async () => {
    const other = await startGateway();
    const exit = await other.stop();
    await removeDir(other.root);
    expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
  });

  it('runMain reports a bad flag by name and a non-zero exit', async () => {
    const done = await runMain(['--no-such-flag']);
    expect(done.code).not.toBe(0);
    expect(done.stderr).toContain('--no-such-flag');
  });
});
