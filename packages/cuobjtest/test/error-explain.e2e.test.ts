// cuobjtest's errors name the HTTP status and the likely cause, against a real gateway process:
// a wrong secret, an unknown access key and an invalid bucket name each get their own line (the
// first request is a HEAD of the bucket, whose answers carry no body: the cause is inferred from
// the status and the request), and a refused connection names the endpoint. Before, each was a
// bare `UnknownError`.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { EMBEDDED_CREDENTIALS, EmbeddedGateway } from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/main.js', import.meta.url));

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
