// cuobjtest's errors name the HTTP status and the likely cause, against a real gateway process:
// a wrong secret, an unknown access key and an invalid bucket name each get their own line (the
// first request is a HEAD of the bucket, whose answers carry no body: the cause is inferred from
// the status and the request), and a refused connection names the endpoint. Before, each was a
// bare `UnknownError`. Over HTTPS with a private CA: without the CA the line says "certificate not
// trusted" and what to pass; with -ca-bundle (or AWS_CA_BUNDLE) the run succeeds — with no -access,
// since the default key is the one npm start's gateway prints (vgwrdma).
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { EMBEDDED_CREDENTIALS, EmbeddedGateway, sceneTls } from '@vgwrdma/test-kit';
import { sceneRef, sceneTest } from '@vgwrdma/test-kit/scene';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

/** The HTTPS gateway's secret; its access key is npm start's default, vgwrdma. */
const TLS_SECRET = 'npm-start-like-secret';
let caFile: string;
/** HTTPS with a private CA's certificate. */
const tlsGateway = sceneTest(async (dir) => {
  const tls = await sceneTls(dir, 'cuobjtest-ca.vgwrdma.test');
  caFile = tls.ca.caFile;
  return { credentials: { access: 'vgwrdma', secret: TLS_SECRET }, globalArgs: tls.args };
});

describe('cuobjtest error lines', () => {
  let gw: EmbeddedGateway;
  beforeAll(async () => {
    gw = await EmbeddedGateway.start();
  });
  afterAll(async () => {
    await gw?.stop();
  });

  async function cuobjtest(
    endpoint: string,
    access: string,
    secret: string,
    ...args: string[]
  ): Promise<{ code: number; stderr: string }> {
    try {
      const { stderr } = await promisify(execFile)(
        process.execPath,
        [BIN, '-endpoint', endpoint, '-access', access, '-size', '4KiB', '-n', '1', ...args],
        { env: { ...process.env, AWS_SECRET_ACCESS_KEY: secret, CI: '1' } },
      );
      return { code: 0, stderr };
    } catch (e) {
      const x = e as { code: number; stderr: string };
      return { code: x.code, stderr: x.stderr };
    }
  }

  it('a wrong secret or access key: 403 and what to check, never a bare UnknownError', async () => {
    const secret = await cuobjtest(gw.endpoint, EMBEDDED_CREDENTIALS.accessKeyId, 'wrong-secret-0000');
    expect(secret.code).toBe(1);
    expect(secret.stderr).toMatch(/^cuobjtest: 403 .*-secret \/ AWS_SECRET_ACCESS_KEY/m);
    expect(secret.stderr).not.toMatch(/UnknownError/);
    const access = await cuobjtest(gw.endpoint, 'nobody-like-this', EMBEDDED_CREDENTIALS.secretAccessKey);
    expect(access.code).toBe(1);
    expect(access.stderr).toMatch(/^cuobjtest: 403 .*-access \/ AWS_ACCESS_KEY_ID/m);
  });

  it('an invalid bucket name: 400 InvalidBucketName', async () => {
    const r = await cuobjtest(
      gw.endpoint,
      EMBEDDED_CREDENTIALS.accessKeyId,
      EMBEDDED_CREDENTIALS.secretAccessKey,
      '-bucket',
      'Bad_Bucket',
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^cuobjtest: 400 InvalidBucketName: check -bucket/m);
  });

  it('a refused connection names the endpoint', async () => {
    const r = await cuobjtest('http://127.0.0.1:1', 'a', 'b');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^cuobjtest: http:\/\/127\.0\.0\.1:1: ECONNREFUSED: is the gateway running there\?/m,
    );
  });
});

describe('cuobjtest over HTTPS with a private CA, default access key', () => {
  const the = sceneRef(tlsGateway);

  async function run(args: string[], extraEnv: Record<string, string> = {}) {
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        [BIN, '-endpoint', the.gw.url, '-std-s3', '-size', '4KiB', '-n', '1', '--json', ...args],
        { env: { ...process.env, AWS_SECRET_ACCESS_KEY: TLS_SECRET, CI: '1', ...extraEnv } },
      );
      return { code: 0, stdout, stderr };
    } catch (e) {
      return e as { code: number; stdout: string; stderr: string };
    }
  }

  it('says "certificate not trusted" without the CA, and runs with -ca-bundle or AWS_CA_BUNDLE', async () => {
    expect(the.gw.url).toMatch(/^https:/);
    const untrusted = await run([]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(
      /certificate not trusted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\): pass -ca-bundle FILE/,
    );
    const flag = await run(['-ca-bundle', caFile]);
    expect(flag.code, flag.stderr).toBe(0);
    expect(JSON.parse(flag.stdout)).toMatchObject({ verified: true });
    const env = await run([], { AWS_CA_BUNDLE: caFile });
    expect(env.code, env.stderr).toBe(0);
    const missing = await run(['-ca-bundle', the.path('missing.pem')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/-ca-bundle .*missing\.pem: ENOENT/);
  });
});
