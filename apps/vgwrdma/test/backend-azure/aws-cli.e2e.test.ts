// The AWS CLI round trip through `vgwrdma azure` over Azurite: make a bucket, copy files in and
// out (a 40 MiB file goes up as a multipart upload of 8 MiB parts, i.e. staged blocks committed
// by Complete), list, remove. Bytes are compared by SHA-256; the multipart object is also read
// straight from Blob Storage, bypassing the gateway, to show it is one committed block blob.
import { AzureBackend } from '@vgwrdma/backend-azure';
import {
  type AppProcess,
  AZURITE_ACCOUNT,
  type Azurite,
  azuriteUnavailable,
  killAllChildren,
  makeTempDir,
  ROOT_CREDENTIALS,
  removeDir,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AWS_BIN,
  type AwsRunner,
  awsCli,
  awsOk,
  type BucketSteps,
  bucketSteps,
  s3api as s3apiJson,
} from '../helpers/aws-cli.js';
import { startAzureGateway } from './azure-gateway.js';

const unavailable = AWS_BIN === undefined ? 'no aws binary (apt-get install awscli)' : azuriteUnavailable();
const MiB = 1024 * 1024;

let gw: AppProcess;
let azurite: Azurite;
let work: string;
let aws: AwsRunner;
let cli: BucketSteps;
const bucket = `azcli-${Date.now().toString(36)}`;

const ok = (args: readonly string[]): Promise<string> => awsOk(aws, args);

/** `aws s3api ...` as JSON; list calls pass --no-paginate so KeyCount is the raw response's. */
const s3api = <T>(args: readonly string[]): Promise<T> => s3apiJson<T>(aws, args);

describe.skipIf(unavailable !== undefined)(
  `AWS CLI through vgwrdma azure${unavailable ? ` (skipped: ${unavailable})` : ''}`,
  { timeout: 180_000 },
  () => {
    beforeAll(async () => {
      work = await makeTempDir('vgwrdma-azcli-');
      ({ gw, azurite } = await startAzureGateway(ROOT_CREDENTIALS));
      aws = await awsCli({ endpoint: gw.url, ...ROOT_CREDENTIALS, workDir: work });
      cli = bucketSteps(aws, work, bucket);
    });
    afterAll(async () => {
      await gw?.stop();
      killAllChildren();
      if (work) await removeDir(work);
    });

    it('announces the azure backend and its service in the banner', () => {
      expect(gw.stdout()).toMatch(/^\s*backend:\s+azure \(shared key of devstoreaccount1\)$/m);
      expect(gw.stdout()).toContain(azurite.url);
    });

    it('makes a bucket (a container) and lists it', async () => {
      await cli.makeAndList();
    });

    it('copies a small file in and out, lists it, heads it with its MD5 ETag and metadata', async () => {
      const body = 'hello azure through the aws cli\n';
      const head = await cli.cpSmallFile('docs/small.txt', body, ['--metadata', 'colour=blue']);
      expect(await ok(['s3', 'ls', `s3://${bucket}/docs/`])).toMatch(
        new RegExp(`\\s${body.length} small\\.txt$`, 'm'),
      );
      expect(head.Metadata).toEqual({ colour: 'blue' });
    });

    it('uploads 40 MiB as a multipart upload and downloads it byte for byte', async () => {
      const size = 40 * MiB;
      const { head, sent, received } = await cli.cpRoundTrip('big/big.bin', size);
      expect(head.ContentLength).toBe(size);
      // 8 MiB parts: five of them.
      expect(head.ETag).toMatch(/^"[0-9a-f]{32}-5"$/);
      expect(received).toBe(sent);
      // Straight from Blob Storage: one committed blob of that size, no upload left over.
      const direct = new AzureBackend({ account: AZURITE_ACCOUNT, key: azurite.key, url: azurite.url });
      const ctx = {
        account: { access: 'test', role: 'admin' as const },
        requestId: 't',
        signal: new AbortController().signal,
      };
      try {
        const info = await direct.headObject(ctx, { bucket, key: 'big/big.bin' });
        expect(info.size).toBe(size);
        expect(info.partsCount).toBe(5);
        const uploads = await direct.listMultipartUploads(ctx, { bucket, maxUploads: 100 });
        expect(uploads.uploads).toEqual([]);
      } finally {
        await direct.shutdown();
      }
    });

    it('removes everything with s3 rm --recursive, then the bucket', async () => {
      await ok(['s3', 'rm', '--recursive', `s3://${bucket}/`]);
      const list = await s3api<{ KeyCount: number }>([
        'list-objects-v2',
        '--no-paginate',
        '--bucket',
        bucket,
      ]);
      expect(list.KeyCount).toBe(0);
      await ok(['s3', 'rb', `s3://${bucket}`]);
      expect(await ok(['s3', 'ls'])).not.toContain(bucket);
    });
  },
);
