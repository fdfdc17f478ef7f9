// Requests signed by the real @aws-sdk/client-s3 over loopback HTTP: the verifier must accept
// every one of them (odd keys, list queries, batch POSTs, aws-chunked uploads) and reject the
// same requests signed with the wrong secret, key or region.
import { Readable } from 'node:stream';
import { crc32 } from 'node:zlib';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staticCredentials } from '../../src/auth/credentials.js';
import { type AuthServer, startAuthServer } from '../support/auth-server.js';

const ACCESS = 'AKIDTESTGATEWAY';
const SECRET = 'test/secret+with=odd/chars';
const REGION = 'us-east-1';

const ODD_KEYS = [
  'plain.txt',
  'with space.txt',
  'unicodé/日本語/файл.bin',
  'a+b=c~d.txt',
  'dir//double//slash',
  "special!*'()$@&,;:.txt",
  'percent%20literal%2F',
  'trailing/',
  '..dots/./x',
];

let server: AuthServer;

function client(overrides: Partial<S3ClientConfig> = {}): S3Client {
  return new S3Client({
    endpoint: server.endpoint,
    region: REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS, secretAccessKey: SECRET },
    maxAttempts: 1,
    ...overrides,
  });
}

/** Sends and returns what the server recorded for it (the SDK may fail to parse our empty replies). */
async function sendAndRecord(c: S3Client, command: object) {
  const before = server.records.length;
  const outcome = await c.send(command as never).then(
    () => undefined,
    (err: unknown) => err as Error & { name: string },
  );
  expect(server.records.length).toBe(before + 1);
  const record = server.records[before];
  if (!record) throw new Error('no record');
  return { record, outcome };
}

beforeAll(async () => {
  server = await startAuthServer(
    staticCredentials([{ access: ACCESS, secret: SECRET, account: { role: 'admin', userID: 7 } }]),
    { region: REGION },
  );
});
afterAll(() => server.close());

describe('requests signed by @aws-sdk/client-s3', () => {
  it.each(ODD_KEYS)('accepts PutObject of a Buffer body for key %j (signed payload hash)', async (key) => {
    const body = Buffer.from(`content of ${key}`);
    const { record } = await sendAndRecord(
      client(),
      new PutObjectCommand({ Bucket: 'bucket', Key: key, Body: body }),
    );
    expect(record.error).toBeUndefined();
    expect(record.result?.anonymous).toBe(false);
    expect(record.result?.presigned).toBe(false);
    expect(record.result?.account).toMatchObject({ access: ACCESS, role: 'admin', userID: 7 });
    expect(record.result?.payload.kind).toBe('signed');
    expect(record.body?.equals(body)).toBe(true);
  });

  it.each(ODD_KEYS)('accepts GetObject and HeadObject for key %j', async (key) => {
    for (const command of [
      new GetObjectCommand({ Bucket: 'bucket', Key: key, Range: 'bytes=0-9' }),
      new HeadObjectCommand({ Bucket: 'bucket', Key: key }),
    ]) {
      const { record } = await sendAndRecord(client(), command);
      expect(record.error).toBeUndefined();
      expect(record.result?.accessKey).toBe(ACCESS);
    }
  });

  it('accepts list queries with encoded prefixes, delimiters and tokens', async () => {
    const queries = [
      { Prefix: 'a b+c=d/é', Delimiter: '/', MaxKeys: 5 },
      { Prefix: '', StartAfter: 'x~y*z', ContinuationToken: 'tok/en+==', FetchOwner: true },
      { Prefix: '日本', EncodingType: 'url' as const },
    ];
    for (const q of queries) {
      const { record } = await sendAndRecord(client(), new ListObjectsV2Command({ Bucket: 'bucket', ...q }));
      expect(record.error).toBeUndefined();
      expect(record.rawQuery).toContain('list-type=2');
    }
  });

  it('accepts a DeleteObjects POST (?delete with a body and Content-MD5/checksum headers)', async () => {
    const { record } = await sendAndRecord(
      client(),
      new DeleteObjectsCommand({ Bucket: 'bucket', Delete: { Objects: [{ Key: 'a b' }, { Key: 'c+d' }] } }),
    );
    expect(record.error).toBeUndefined();
    expect(record.body?.toString()).toContain('<Key>a b</Key>');
  });

  it('decodes the SDK’s own aws-chunked stream upload with a CRC32 trailer', async () => {
    const data = Buffer.alloc(300_000, 'x');
    const body = Readable.from([data.subarray(0, 100_000), data.subarray(100_000)]);
    const { record } = await sendAndRecord(
      client(),
      new PutObjectCommand({ Bucket: 'bucket', Key: 'stream me', Body: body, ContentLength: data.length }),
    );
    expect(record.error).toBeUndefined();
    expect(record.headers['content-encoding']).toContain('aws-chunked');
    expect(record.result?.payload.kind).toBe('streaming-unsigned-trailer');
    expect(record.body?.equals(data)).toBe(true);
    expect(record.headers['x-amz-trailer']).toBe('x-amz-checksum-crc32');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(data));
    expect(record.trailers?.['x-amz-checksum-crc32']).toBe(crc.toString('base64'));
  });

  it('rejects the wrong secret with SignatureDoesNotMatch', async () => {
    const c = client({ credentials: { accessKeyId: ACCESS, secretAccessKey: `${SECRET}x` } });
    const { record, outcome } = await sendAndRecord(
      c,
      new GetObjectCommand({ Bucket: 'bucket', Key: 'with space.txt' }),
    );
    expect(record.error?.code).toBe('SignatureDoesNotMatch');
    expect(outcome?.name).toBe('SignatureDoesNotMatch');
  });

  it('rejects an unknown access key with InvalidAccessKeyId', async () => {
    const c = client({ credentials: { accessKeyId: 'NOSUCHKEY', secretAccessKey: SECRET } });
    const { record, outcome } = await sendAndRecord(c, new HeadObjectCommand({ Bucket: 'bucket', Key: 'k' }));
    expect(record.error?.code).toBe('InvalidAccessKeyId');
    expect(outcome).toBeDefined();
  });

  it('rejects a request scoped to another region with AuthorizationHeaderMalformed', async () => {
    const { record, outcome } = await sendAndRecord(
      client({ region: 'eu-west-3' }),
      new GetObjectCommand({ Bucket: 'bucket', Key: 'k' }),
    );
    expect(record.error?.code).toBe('AuthorizationHeaderMalformed');
    expect(record.error?.message).toBe(
      "The authorization header is malformed; the region 'eu-west-3' is wrong; expecting 'us-east-1'",
    );
    expect(outcome?.name).toBe('AuthorizationHeaderMalformed');
  });
});
