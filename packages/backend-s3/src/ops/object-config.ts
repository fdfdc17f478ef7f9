// Object sub-resources forwarded upstream: tags, retention, legal hold, ACL, restore
// (GetObjectAttributes is composed from HEADs: ./object-attributes.ts).
import {
  DeleteObjectTaggingCommand,
  GetObjectAclCommand,
  GetObjectLegalHoldCommand,
  GetObjectRetentionCommand,
  GetObjectTaggingCommand,
  type Permission,
  PutObjectAclCommand,
  PutObjectLegalHoldCommand,
  PutObjectRetentionCommand,
  PutObjectTaggingCommand,
  RestoreObjectCommand,
} from '@aws-sdk/client-s3';
import type { ObjectKey } from '@vgwrdma/backend-contract';
import { S3Error } from '@vgwrdma/backend-contract';
import { compact } from '../compact.js';
import { ownerFrom, tagsFromSdk, tagsToSdk } from '../convert.js';
import { call, checkBucket, type S3Op } from '../upstream.js';

const keyFields = (input: ObjectKey) => ({
  Bucket: input.bucket,
  Key: input.key,
  VersionId: input.versionId,
});

export const getObjectTagging: S3Op<'getObjectTagging'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'object', (o) =>
    up.client.send(new GetObjectTaggingCommand(keyFields(input)), o),
  );
  return tagsFromSdk(out.TagSet);
};

export const putObjectTagging: S3Op<'putObjectTagging'> = async (up, ctx, input, tags) => {
  checkBucket(up, input.bucket);
  await call(ctx, 'object', (o) =>
    up.client.send(
      new PutObjectTaggingCommand({ ...keyFields(input), Tagging: { TagSet: tagsToSdk(tags) } }),
      o,
    ),
  );
};

export const deleteObjectTagging: S3Op<'deleteObjectTagging'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  await call(ctx, 'object', (o) => up.client.send(new DeleteObjectTaggingCommand(keyFields(input)), o));
};

export const getObjectRetention: S3Op<'getObjectRetention'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'object', (o) =>
    up.client.send(new GetObjectRetentionCommand(keyFields(input)), o),
  );
  const r = out.Retention;
  if (r?.Mode === undefined || r.RetainUntilDate === undefined)
    throw new S3Error('NoSuchObjectLockConfiguration');
  return { Mode: r.Mode, RetainUntilDate: r.RetainUntilDate.toISOString() };
};

export const putObjectRetention: S3Op<'putObjectRetention'> = async (
  up,
  ctx,
  input,
  retention,
  bypassGovernance,
) => {
  checkBucket(up, input.bucket);
  await call(ctx, 'object', (o) =>
    up.client.send(
      new PutObjectRetentionCommand({
        ...keyFields(input),
        Retention: { Mode: retention.Mode, RetainUntilDate: new Date(retention.RetainUntilDate) },
        BypassGovernanceRetention: bypassGovernance || undefined,
      }),
      o,
    ),
  );
};

export const getObjectLegalHold: S3Op<'getObjectLegalHold'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'object', (o) =>
    up.client.send(new GetObjectLegalHoldCommand(keyFields(input)), o),
  );
  return out.LegalHold?.Status === 'ON';
};

export const putObjectLegalHold: S3Op<'putObjectLegalHold'> = async (up, ctx, input, on) => {
  checkBucket(up, input.bucket);
  await call(ctx, 'object', (o) =>
    up.client.send(
      new PutObjectLegalHoldCommand({ ...keyFields(input), LegalHold: { Status: on ? 'ON' : 'OFF' } }),
      o,
    ),
  );
};

export const getObjectAcl: S3Op<'getObjectAcl'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'object', (o) => up.client.send(new GetObjectAclCommand(keyFields(input)), o));
  return {
    owner: ownerFrom(out.Owner) ?? { id: '' },
    grants: (out.Grants ?? []).map((g) => ({
      grantee: compact({
        type: g.Grantee?.Type === 'Group' ? ('Group' as const) : ('CanonicalUser' as const),
        id: g.Grantee?.ID,
        uri: g.Grantee?.URI,
      }),
      permission: g.Permission ?? 'READ',
    })),
    // The upstream's ACL names upstream accounts, not the gateway's: access to the object follows
    // the gateway-side bucket ACL.
    inherited: true,
  };
};

export const putObjectAcl: S3Op<'putObjectAcl'> = async (up, ctx, input, acl) => {
  checkBucket(up, input.bucket);
  await call(ctx, 'object', (o) =>
    up.client.send(
      new PutObjectAclCommand({
        ...keyFields(input),
        AccessControlPolicy: {
          Owner: { ID: acl.owner.id, DisplayName: acl.owner.displayName },
          Grants: acl.grants.map((g) => ({
            Grantee: { Type: g.grantee.type, ID: g.grantee.id, URI: g.grantee.uri },
            Permission: g.permission as Permission,
          })),
        },
      }),
      o,
    ),
  );
};

export const restoreObject: S3Op<'restoreObject'> = async (up, ctx, input) => {
  checkBucket(up, input.bucket);
  await call(ctx, 'object', (o) => up.client.send(new RestoreObjectCommand(keyFields(input)), o));
};
