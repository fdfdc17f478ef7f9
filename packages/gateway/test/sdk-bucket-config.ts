// Bucket configuration sub-resources through the SDK: what is stored comes back.
import {
  CreateBucketCommand,
  DeleteBucketPolicyCommand,
  GetBucketAclCommand,
  GetBucketCorsCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketPolicyCommand,
  GetBucketVersioningCommand,
  GetObjectLockConfigurationCommand,
  PutBucketCorsCommand,
  PutBucketOwnershipControlsCommand,
  PutBucketPolicyCommand,
  PutBucketVersioningCommand,
  PutObjectLockConfigurationCommand,
  type S3ServiceException,
} from '@aws-sdk/client-s3';
import type { Backend } from '@vgwrdma/backend-contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS, startGateway, type TestGateway } from './support/harness.js';

export function bucketConfigSuite(
  name: string,
  makeBackend: () => Promise<{ backend: Backend; cleanup(): Promise<void> }>,
) {
  describe(`bucket configuration over the SDK (${name})`, () => {
    let gw: TestGateway;
    let cleanup: () => Promise<void>;
    const Bucket = 'config-bucket';

    beforeAll(async () => {
      const made = await makeBackend();
      cleanup = made.cleanup;
      gw = await startGateway(made.backend);
      await gw.client.send(new CreateBucketCommand({ Bucket, ObjectLockEnabledForBucket: true }));
    });
    afterAll(async () => {
      await gw.close();
      await cleanup();
    });

    it('stores versioning', async () => {
      await gw.client.send(
        new PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } }),
      );
      const out = await gw.client.send(new GetBucketVersioningCommand({ Bucket }));
      expect(out.Status).toBe('Enabled');
    });

    it('stores, returns and deletes a policy', async () => {
      const policy = JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: `arn:aws:s3:::${Bucket}/*` },
        ],
      });
      await gw.client.send(new PutBucketPolicyCommand({ Bucket, Policy: policy }));
      const out = await gw.client.send(new GetBucketPolicyCommand({ Bucket }));
      expect(JSON.parse(out.Policy ?? '{}')).toEqual(JSON.parse(policy));
      await gw.client.send(new DeleteBucketPolicyCommand({ Bucket }));
      const gone = await gw.client.send(new GetBucketPolicyCommand({ Bucket })).catch((e) => e);
      expect((gone as S3ServiceException).name).toBe('NoSuchBucketPolicy');
    });

    it('stores CORS rules', async () => {
      await gw.client.send(
        new PutBucketCorsCommand({
          Bucket,
          CORSConfiguration: {
            CORSRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['https://example.com'] }],
          },
        }),
      );
      const out = await gw.client.send(new GetBucketCorsCommand({ Bucket }));
      expect(out.CORSRules?.[0]?.AllowedOrigins).toEqual(['https://example.com']);
    });

    it('stores ownership controls', async () => {
      await gw.client.send(
        new PutBucketOwnershipControlsCommand({
          Bucket,
          OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerPreferred' }] },
        }),
      );
      const out = await gw.client.send(new GetBucketOwnershipControlsCommand({ Bucket }));
      expect(out.OwnershipControls?.Rules?.[0]?.ObjectOwnership).toBe('BucketOwnerPreferred');
    });

    it('stores an object-lock configuration', async () => {
      await gw.client.send(
        new PutObjectLockConfigurationCommand({
          Bucket,
          ObjectLockConfiguration: {
            ObjectLockEnabled: 'Enabled',
            Rule: { DefaultRetention: { Mode: 'GOVERNANCE', Days: 3 } },
          },
        }),
      );
      const out = await gw.client.send(new GetObjectLockConfigurationCommand({ Bucket }));
      expect(out.ObjectLockConfiguration?.ObjectLockEnabled).toBe('Enabled');
      expect(out.ObjectLockConfiguration?.Rule?.DefaultRetention).toEqual({ Mode: 'GOVERNANCE', Days: 3 });
    });

    it('returns the bucket ACL with the owner holding full control', async () => {
      const out = await gw.client.send(new GetBucketAclCommand({ Bucket }));
      expect(out.Owner?.ID).toBe(ACCESS);
      expect(out.Grants).toContainEqual(
        expect.objectContaining({
          Permission: 'FULL_CONTROL',
          Grantee: expect.objectContaining({ ID: ACCESS }),
        }),
      );
    });
  });
}
