// Requests signed by two other real clients, when installed: the AWS CLI (botocore: its own path
// quoting, list queries, `s3 cp`, SigV4 presigning) and curl's --aws-sigv4. Skipped where absent.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticCredentials } from '../../src/auth/credentials.js';
import { type AuthServer, startAuthServer } from '../support/auth-server.js';

const run = promisify(execFile);
const ACCESS = 'AKIDCLI';
const SECRET = 'cli/secret+key';

async function has(tool: string): Promise<boolean> {
  return run(tool, ['--version']).then(
    () => true,
    () => false,
  );
}
const haveAws = await has('aws');
const haveCurl = await has('curl');

let server: AuthServer;
let env: NodeJS.ProcessEnv;
let dir: string;

beforeAll(async () => {
  server = await startAuthServer(staticCredentials([{ access: ACCESS, secret: SECRET }]), {
    region: 'us-east-1',
  });
  dir = mkdtempSync(join(tmpdir(), 'gw-cli-'));
  const config = join(dir, 'config');
  writeFileSync(
    config,
    '[default]\nregion = us-east-1\ns3 =\n  signature_version = s3v4\n  addressing_style = path\n',
  );
  env = {
    ...process.env,
    AWS_ACCESS_KEY_ID: ACCESS,
    AWS_SECRET_ACCESS_KEY: SECRET,
    AWS_CONFIG_FILE: config,
    AWS_SHARED_CREDENTIALS_FILE: join(dir, 'none'),
  };
});
afterAll(() => server.close());

const last = () => server.records.at(-1);

// The AWS CLI takes seconds to start on a busy machine.
describe.skipIf(!haveAws)('AWS CLI', { timeout: 60_000 }, () => {
  const aws = (...args: string[]) => run('aws', ['--endpoint-url', server.endpoint, ...args], { env });

  it('put-object with an odd key verifies with a signed payload hash', async () => {
    const file = join(dir, 'body.txt');
    writeFileSync(file, 'cli body');
    await aws('s3api', 'put-object', '--bucket', 'b', '--key', 'odd key+=~é/x', '--body', file);
    expect(last()?.error).toBeUndefined();
    expect(last()?.rawPath).toBe('/b/odd%20key%2B%3D~%C3%A9/x');
    expect(last()?.body?.toString()).toBe('cli body');
  });

  it('list-objects-v2 with a prefix that needs encoding verifies', async () => {
    await aws('s3api', 'list-objects-v2', '--bucket', 'b', '--prefix', 'a b+c/ü', '--delimiter', '/');
    expect(last()?.error).toBeUndefined();
    expect(last()?.rawQuery).toContain('list-type=2');
  });

  it('s3 presign (SigV4) gives a URL that verifies', async () => {
    const { stdout } = await aws('s3', 'presign', 's3://b/pre key+é', '--expires-in', '60');
    const res = await fetch(stdout.trim());
    expect(res.status).toBe(200);
    expect(last()?.result).toMatchObject({ presigned: true, accessKey: ACCESS });
  });

  it('a wrong secret is refused', async () => {
    await expect(
      run('aws', ['--endpoint-url', server.endpoint, 's3api', 'head-object', '--bucket', 'b', '--key', 'k'], {
        env: { ...env, AWS_SECRET_ACCESS_KEY: 'wrong' },
      }),
    ).rejects.toThrow();
    expect(last()?.error?.code).toBe('SignatureDoesNotMatch');
  });
});

describe.skipIf(!haveCurl)('curl --aws-sigv4', () => {
  it('verifies a signed list request', async () => {
    const { stdout } = await run('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--aws-sigv4',
      'aws:amz:us-east-1:s3',
      '--user',
      `${ACCESS}:${SECRET}`,
      '-H',
      'x-amz-content-sha256: UNSIGNED-PAYLOAD',
      // curl 7.x signs the query in the order given (no sorting), so give it sorted, as AWS needs.
      `${server.endpoint}/b/curl%20key?list-type=2&prefix=x%2By`,
    ]);
    expect(stdout).toBe('200');
    expect(last()?.result?.accessKey).toBe(ACCESS);
  });
});
