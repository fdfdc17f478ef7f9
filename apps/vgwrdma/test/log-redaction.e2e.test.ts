// Secrets in logs (issue 30, hole 5): a presigned URL's X-Amz-Signature, SigV2 query auth's
// Signature and an X-Amz-Security-Token were written to the access log, where any reader could
// replay them until they expired. Attack replayed here: a presigned GET (the AWS SDK's presigner), a
// SigV2 query-auth GET (boto3, signature_version 's3'), a presigned URL carrying a session token,
// and a request whose Referer is a presigned URL — against a gateway writing the `s3` format to a
// file and one writing JSON to stderr, both with --debug. No signature or token value appears in
// any file or stream; the lines say REDACTED instead, keep X-Amz-Credential's access key id, and
// still parse. Positive control: both presigned GETs are served (200, the object's bytes).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { ROOT_CREDENTIALS, type Scene } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect } from 'vitest';
import { duplicateKeys, logLines, s3LogFields } from './helpers/access-log-lines.js';
import { BOTO3_PYTHON, boto3Run } from './helpers/boto3.js';

const Bucket = 'redact-logs';
const Key = 'secret.txt';
const BODY = 'the object';
const TOKEN = 'FQoGZXIvYXdzEXAMPLETOKENVALUE0123456789';

/** The query parameter `name` of `url`, raw (still percent-encoded) and decoded. */
function param(url: string, name: string): string[] {
  const raw = new RegExp(`[?&]${name}=([^&]*)`).exec(url)?.[1];
  if (raw === undefined) throw new Error(`${name} missing from ${url}`);
  return [raw, decodeURIComponent(raw)];
}

async function presignedV2(gw: Scene): Promise<string> {
  const program = `
from botocore.config import Config
v2 = boto3.client('s3', endpoint_url=os.environ['GW_URL'], region_name='us-east-1',
    aws_access_key_id=os.environ['GW_ACCESS'], aws_secret_access_key=os.environ['GW_SECRET'],
    config=Config(signature_version='s3', s3={'addressing_style': 'path'}))
out(v2.generate_presigned_url('get_object', Params={'Bucket': '${Bucket}', 'Key': '${Key}'}, ExpiresIn=600))
`;
  return (await boto3Run(gw.url, ROOT_CREDENTIALS, program)) as string;
}

/** The `s3` format to access.log in the scene folder. */
const s3Log = sceneTest((dir) => ({
  globalArgs: ['--debug', '--access-log-format', 's3', '--access-log', join(dir, 'access.log')],
}));
/** JSON lines on stderr. */
const jsonLog = sceneTest({ globalArgs: ['--debug'] });

describe.skipIf(BOTO3_PYTHON === undefined)('signatures never reach a log', () => {
  /** Runs the four requests against `gw`; answers every secret value they carried. */
  async function replay(gw: Scene): Promise<string[]> {
    const sdk = gw.s3;
    await sdk.send(new CreateBucketCommand({ Bucket }));
    await sdk.send(new PutObjectCommand({ Bucket, Key, Body: BODY }));
    const v4 = await getSignedUrl(sdk, new GetObjectCommand({ Bucket, Key }), { expiresIn: 600 });
    const v2 = await presignedV2(gw);
    expect(v2).toContain('Signature=');
    for (const url of [v4, v2]) {
      const res = await fetch(url);
      expect(res.status, url).toBe(200);
      expect(await res.text()).toBe(BODY);
    }
    const withToken = `${v4}&X-Amz-Security-Token=${TOKEN}`;
    expect((await fetch(withToken)).status).toBe(403);
    const referred = await fetch(`${gw.url}/${Bucket}/${Key}`, { headers: { referer: v2 } });
    expect(referred.status).toBe(403);
    return [...param(v4, 'X-Amz-Signature'), ...param(v2, 'Signature'), TOKEN];
  }

  s3Log(
    's3 format file and the process streams: REDACTED, the credential kept, lines parse',
    async ({ scene }) => {
      const s3gw = scene.gw;
      const s3File = join(scene.dir, 'access.log');
      const secrets = await replay(scene);
      await expect.poll(async () => logLines(await readFile(s3File, 'utf8')).length).toBe(6);
      const file = await readFile(s3File, 'utf8');
      for (const text of [file, s3gw.stderr(), s3gw.stdout()])
        for (const secret of secrets) expect(text).not.toContain(secret);
      const fields = logLines(file).map(s3LogFields);
      for (const f of fields) expect(f).toHaveLength(29);
      const uris = fields.map((f) => f?.[8] ?? '');
      expect(uris.filter((u) => u.includes('X-Amz-Signature=REDACTED'))).toHaveLength(2);
      expect(uris.filter((u) => u.includes('&Signature=REDACTED'))).toHaveLength(1);
      expect(uris.some((u) => u.includes('X-Amz-Security-Token=REDACTED'))).toBe(true);
      expect(uris.some((u) => u.includes(`X-Amz-Credential=${ROOT_CREDENTIALS.access}%2F`))).toBe(true);
      expect(fields.some((f) => f?.[15]?.includes('Signature=REDACTED'))).toBe(true); // the referer
    },
  );

  jsonLog('JSON lines on stderr: REDACTED, the credential kept, every line parses', async ({ scene }) => {
    const jsongw = scene.gw;
    const secrets = await replay(scene);
    const requestLines = (): string[] =>
      jsongw
        .stderr()
        .split('\n')
        .filter((l) => l.includes('"msg":"request"'));
    await expect.poll(() => requestLines().length).toBe(6);
    for (const text of [jsongw.stderr(), jsongw.stdout()])
      for (const secret of secrets) expect(text).not.toContain(secret);
    const records = requestLines().map((l) => JSON.parse(l) as { url: string });
    for (const l of requestLines()) expect(duplicateKeys(l)).toEqual([]);
    const urls = records.map((r) => r.url);
    expect(urls.filter((u) => u.includes('X-Amz-Signature=REDACTED'))).toHaveLength(2);
    expect(urls.filter((u) => u.includes('&Signature=REDACTED'))).toHaveLength(1);
    expect(urls.some((u) => u.includes(`X-Amz-Credential=${ROOT_CREDENTIALS.access}%2F`))).toBe(true);
  });
});
