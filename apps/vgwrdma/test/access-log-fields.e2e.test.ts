// What the access-log lines say (issue 34, item 3), against the built gateway: JSON lines carry one
// `time` (pino's) and the arrival as `startTime`; an admin call is `admin:list-users` with no
// bucket; the health and ready probes are Health / Ready, not Unknown; a SigV2 header request says
// SigV2 / AuthHeader; and the log stream is only JSON — a 4 MiB GET (streamed, not inlined) used to
// add a MaxListenersExceededWarning in plain text to it. Over TLS, the `s3` format fills signature
// version, authentication type (AuthHeader for the SDK, QueryString for a presigned GET), cipher
// suite and TLS version, which it used to leave '-'.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { adminRequest, ROOT_CREDENTIALS, sceneTls } from '@vgwrdma/test-kit';
import { sceneRef, sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { duplicateKeys, logLines, rawExchange, s3LogFields } from './helpers/access-log-lines.js';
import { BOTO3_PYTHON, boto3Run } from './helpers/boto3.js';

const MiB = 1024 * 1024;

/** JSON lines to json.log in the scene folder, with the probes on. */
const jsonLog = sceneTest((dir) => ({
  globalArgs: ['--access-log', join(dir, 'json.log'), '--health', '/health', '--ready', '/ready'],
}));

let caPem: Buffer;
/** TLS with a throw-away CA, the s3 format to s3-tls.log in the scene folder. */
const tlsS3Log = sceneTest(async (dir) => {
  const tls = await sceneTls(dir, 'logs.vgwrdma.test');
  caPem = tls.caPem;
  return {
    globalArgs: [...tls.args, '--access-log-format', 's3', '--access-log', join(dir, 's3-tls.log')],
    sdk: tls.sdk,
  };
});

describe('JSON access-log lines', () => {
  const the = sceneRef(jsonLog);
  const records = async (): Promise<Array<Record<string, unknown>>> =>
    logLines(await readFile(the.path('json.log'), 'utf8')).map(
      (l) => JSON.parse(l) as Record<string, unknown>,
    );

  it('one time key, startTime for the arrival; admin and probe operations named', async () => {
    expect((await adminRequest(the.gw.url, ROOT_CREDENTIALS, 'list-users')).status).toBe(200);
    expect((await fetch(`${the.gw.url}/health`)).status).toBe(200);
    expect((await fetch(`${the.gw.url}/ready`)).status).toBe(200);
    await expect.poll(async () => (await records()).length).toBe(3);
    for (const line of logLines(await readFile(the.path('json.log'), 'utf8')))
      expect(duplicateKeys(line)).toEqual([]);
    const [admin, health, ready] = await records();
    expect(typeof admin?.time).toBe('number');
    expect(Date.parse(String(admin?.startTime))).toBeLessThanOrEqual(Number(admin?.time));
    expect(admin).toMatchObject({ operation: 'admin:list-users', bucket: '', status: 200 });
    expect(health).toMatchObject({ operation: 'Health', status: 200 });
    expect(ready).toMatchObject({ operation: 'Ready', status: 200 });
  });

  it('a 4 MiB GET leaves the log stream pure JSON: no MaxListenersExceededWarning', async () => {
    await the.s3.send(new CreateBucketCommand({ Bucket: 'big-get' }));
    const body = new Uint8Array(4 * MiB).fill(7);
    await the.s3.send(new PutObjectCommand({ Bucket: 'big-get', Key: 'four', Body: body }));
    for (let i = 0; i < 3; i++) {
      const got = await the.s3.send(new GetObjectCommand({ Bucket: 'big-get', Key: 'four' }));
      expect((await got.Body?.transformToByteArray())?.length).toBe(4 * MiB);
    }
    await expect
      .poll(async () => (await records()).filter((r) => r.operation === 'GetObject').length)
      .toBe(3);
    expect(the.gw.stderr()).not.toMatch(/MaxListenersExceededWarning|Warning:/);
    for (const line of logLines(the.gw.stderr())) expect(() => JSON.parse(line), line).not.toThrow();
  });

  it.skipIf(BOTO3_PYTHON === undefined)('a SigV2 header request says SigV2 / AuthHeader', async () => {
    const program = `
from botocore.config import Config
v2 = boto3.client('s3', endpoint_url=os.environ['GW_URL'], region_name='us-east-1',
    aws_access_key_id=os.environ['GW_ACCESS'], aws_secret_access_key=os.environ['GW_SECRET'],
    config=Config(signature_version='s3', s3={'addressing_style': 'path'}))
out(len(v2.list_buckets()['Buckets']))
`;
    await boto3Run(the.gw.url, ROOT_CREDENTIALS, program);
    await expect
      .poll(async () => (await records()).find((r) => r.operation === 'ListBuckets'))
      .toMatchObject({ signatureVersion: 'SigV2', authType: 'AuthHeader', status: 200 });
    const plain = (await records()).find((r) => r.operation === 'GetObject');
    expect(plain).toMatchObject({ signatureVersion: 'SigV4', authType: 'AuthHeader' });
    expect(plain?.tlsVersion).toBeUndefined();
  });
});

describe('s3 format over TLS', () => {
  tlsS3Log(
    'fills signature version, cipher suite, authentication type and TLS version',
    async ({ scene, s3: sdk }) => {
      const gw = scene.gw;
      const file = join(scene.dir, 's3-tls.log');
      await sdk.send(new CreateBucketCommand({ Bucket: 'tls-logs' }));
      await sdk.send(new PutObjectCommand({ Bucket: 'tls-logs', Key: 'k', Body: 'v' }));
      const url = new URL(await getSignedUrl(sdk, new GetObjectCommand({ Bucket: 'tls-logs', Key: 'k' })));
      const reply = await rawExchange(
        gw.port,
        `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`,
        { ca: caPem },
      );
      expect(reply).toMatch(/^HTTP\/1\.1 200/);
      await expect.poll(async () => logLines(await readFile(file, 'utf8')).length).toBe(3);
      const [create, , presigned] = logLines(await readFile(file, 'utf8')).map(s3LogFields);
      // Fields 20–24 (1-based): signature version, cipher suite, auth type, host header, TLS version.
      expect(create?.slice(19, 24)).toEqual([
        'SigV4',
        expect.stringMatching(/^[A-Z0-9_-]+$/),
        'AuthHeader',
        `127.0.0.1:${gw.port}`,
        expect.stringMatching(/^TLSv1\.[23]$/),
      ]);
      expect(presigned?.[6]).toBe('REST.GET.OBJECT');
      expect(presigned?.[19]).toBe('SigV4');
      expect(presigned?.[21]).toBe('QueryString');
      expect(presigned?.[20]).not.toBe('-');
      expect(presigned?.[23]).toMatch(/^TLSv1\.[23]$/);
    },
  );
});
