// The console's signer against the gateway's verifier: header-signed requests (with a key that
// needs encoding, a query, a signed body hash) and presigned URLs built in the console are
// accepted by the gateway's authenticate(); a wrong secret is not.
import { authenticate, staticCredentials } from '@vgwrdma/gateway';
import { beforeAll, describe, expect, it } from 'vitest';
import { useConfig } from '../src/config.js';
import { setSession } from '../src/session.js';
import { awsEncode, encodeKey, presignedUrl, queryString, sha256Hex, signedHeaders } from '../src/sign.js';

const BASE = 'http://127.0.0.1:7070';
const store = staticCredentials([
  { access: 'console', secret: 'console-secret', account: { role: 'admin' } },
]);

beforeAll(() => {
  useConfig({
    version: 'test',
    region: 'us-east-1',
    s3: { scheme: 'http', host: '127.0.0.1', port: 7070 },
    admin: { scheme: 'http', host: '127.0.0.1', port: 7070 },
    rdma: false,
  });
});

function verify(method: string, url: string, headers: Record<string, string>) {
  const u = new URL(url);
  return authenticate(
    { method, rawPath: u.pathname, rawQuery: u.search.slice(1), headers: { ...headers, host: u.host } },
    store,
    { region: 'us-east-1' },
  );
}

describe('console SigV4', () => {
  it('encodes as AWS does', () => {
    expect(awsEncode("a b!'()*~")).toBe('a%20b%21%27%28%29%2A~');
    expect(encodeKey('dir/<img src=x>.txt')).toBe('dir/%3Cimg%20src%3Dx%3E.txt');
    expect(queryString({ versions: '', prefix: 'a/b' })).toBe('?versions&prefix=a%2Fb');
  });

  it('signs headers the gateway accepts, body hash included', async () => {
    setSession({ accessKeyId: 'console', secretAccessKey: 'console-secret', admin: true }, false);
    const body = '<Tagging><TagSet/></Tagging>';
    const path = `/bucket/${encodeKey("dir/it's <b>.txt")}`;
    const query = { tagging: '' };
    const headers = await signedHeaders({
      method: 'PUT',
      base: BASE,
      path,
      query,
      payloadHash: await sha256Hex(body),
    });
    const auth = await verify('PUT', `${BASE}${path}${queryString(query)}`, headers);
    expect(auth.accessKey).toBe('console');
    expect(auth.payload).toEqual({ kind: 'signed', sha256: await sha256Hex(body) });
  });

  it('presigns GET URLs the gateway accepts', async () => {
    setSession({ accessKeyId: 'console', secretAccessKey: 'console-secret', admin: true }, false);
    const url = await presignedUrl(
      {
        method: 'GET',
        base: BASE,
        path: '/bucket/a%20b.txt',
        query: { 'response-content-disposition': "attachment; filename*=UTF-8''a%20b.txt" },
      },
      900,
    );
    expect(url).toContain('X-Amz-Expires=900');
    const auth = await verify('GET', url, {});
    expect(auth.presigned).toBe(true);
  });

  it('is refused with the wrong secret', async () => {
    setSession({ accessKeyId: 'console', secretAccessKey: 'wrong', admin: true }, false);
    const headers = await signedHeaders({
      method: 'GET',
      base: BASE,
      path: '/',
      payloadHash: await sha256Hex(''),
    });
    await expect(verify('GET', `${BASE}/`, headers)).rejects.toMatchObject({ code: 'SignatureDoesNotMatch' });
  });
});
