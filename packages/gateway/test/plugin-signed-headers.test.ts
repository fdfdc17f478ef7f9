// GatewayPlugin.signedHeaderPrefixes: a plugin's own request headers (outside x-amz-*) must be
// covered by the SigV4 signature. The attack: whoever holds a signed request or a presigned URL
// adds such a header after signing, to make the plugin act with the signer's authority. With the
// plugin installed that request is refused (403 AccessDenied, HeadersNotSigned) at the
// authenticate step; the same header, signed, is served; the gateway alone knows no such prefix.
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { presignUrl, signHeaders } from '@vgwrdma/test-kit';
import { MemoryBackend } from '@vgwrdma/test-kit/memory';
import { afterEach, describe, expect, it } from 'vitest';
import type { GatewayPlugin } from '../src/plugins/index.js';
import { ADMIN_ACCESS, ADMIN_SECRET, startGateway, type TestGateway } from './support/harness.js';
import { raw } from './support/raw-http.js';

const BUCKET = 'prefix-bucket';
const ADDED = { 'x-demo-route': 'attacker' };
const DEMO: GatewayPlugin = { name: 'demo', signedHeaderPrefixes: ['X-Demo-'] };
const credentials = { access: ADMIN_ACCESS, secret: ADMIN_SECRET };

let gw: TestGateway | undefined;
afterEach(async () => {
  await gw?.close();
  gw = undefined;
});

async function started(plugins: GatewayPlugin[]): Promise<TestGateway> {
  gw = await startGateway(new MemoryBackend(), { plugins });
  await gw.adminClient.send(new CreateBucketCommand({ Bucket: BUCKET }));
  return gw;
}

/** A ListObjects signed over `signed`, sent with `added` put in after signing. */
async function listWith(url: string, signed: Record<string, string>, added: Record<string, string>) {
  const headers = await signHeaders({
    baseUrl: url,
    credentials,
    method: 'GET',
    path: `/${BUCKET}`,
    headers: signed,
  });
  return raw(url, { path: `/${BUCKET}`, headers: { ...headers, ...added } });
}

describe("a plugin's signedHeaderPrefixes", () => {
  it('refuse its header added to a signed request after signing; serve it signed', async () => {
    const { url } = await started([DEMO]);
    const attack = await listWith(url, {}, ADDED);
    expect(attack.status).toBe(403);
    expect(attack.body).toContain('<Code>AccessDenied</Code>');
    expect(attack.body).toContain('<HeadersNotSigned>x-demo-route</HeadersNotSigned>');
    // Positive control: the same header inside the signature.
    expect((await listWith(url, ADDED, {})).status).toBe(200);
  });

  it('refuse its header added to a presigned URL', async () => {
    const { url } = await started([DEMO]);
    const presigned = await presignUrl({
      baseUrl: url,
      credentials,
      method: 'GET',
      path: `/${BUCKET}`,
      expiresIn: 60,
    });
    const path = `${presigned.pathname}${presigned.search}`;
    const attack = await raw(url, { path, headers: ADDED });
    expect([attack.status, /<Code>([^<]*)<\/Code>/.exec(attack.body)?.[1]]).toEqual([403, 'AccessDenied']);
    expect((await raw(url, { path })).status).toBe(200);
  });

  it('are the plugin rule: a gateway without the plugin signs only x-amz-* and host', async () => {
    const { url } = await started([]);
    expect((await listWith(url, {}, ADDED)).status).toBe(200);
  });
});
