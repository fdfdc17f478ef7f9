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
import type {
  ObjectAclOutput,
  ObjectKey,
  ObjectRetention,
  RequestContext,
  TagSet,
} from '@vgwrdma/backend-contract';
import { S3Error } from '@vgwrdma/backend-contract';
import { compact } from '../compact.js';
import { ownerFrom, tagsFromSdk, tagsToSdk } from '../convert.js';
import { call, checkBucket, type Upstream } from '../upstream.js';

const keyFields = (input: ObjectKey) => ({
  Bucket: input.bucket,
  Key: input.key,
  VersionId: input.versionId,
});

export async function getObjectTagging(up: Upstream, ctx: RequestContext, input: ObjectKey): Promise<TagSet> {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'object', (o) =>
    up.client.send(new GetObjectTaggingCommand(keyFields(input)), o),
  );
  return tagsFromSdk(out.TagSet);
}

export async function putObjectTagging(
  up: Upstream,
  ctx: RequestContext,
  input: ObjectKey,
  tags: TagSet,
): Promise<void> {
  checkBucket(up, input.bucket);
  await call(ctx, 'object', (o) =>
    up.client.send(
      new PutObjectTaggingCommand({ ...keyFields(input), Tagging: { TagSet: tagsToSdk(tags) } }),
      o,
    ),
  );
}

export async function deleteObjectTagging(
  up: Upstream,
  ctx: RequestContext,
  input: ObjectKey,
): Promise<void> {
  checkBucket(up, input.bucket);
  await call(ctx, 'object', (o) => up.client.send(new DeleteObjectTaggingCommand(keyFields(input)), o));
}

export async function getObjectRetention(
  up: Upstream,
  ctx: RequestContext,
  input: ObjectKey,
): Promise<ObjectRetention> {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'object', (o) =>
    up.client.send(new GetObjectRetentionCommand(keyFields(input)), o),
  );
  const r = out.Retention;
  if (r?.Mode === undefined || r.RetainUntilDate === undefined)
    throw new S3Error('NoSuchObjectLockConfiguration');
  return { Mode: r.Mode, RetainUntilDate: r.RetainUntilDate.toISOString() };
}

export async function putObjectRetention(
  up: Upstream,
  ctx: RequestContext,
  input: ObjectKey,
  retention: ObjectRetention,
  bypassGovernance: boolean,
): Promise<void> {
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
}

export async function getObjectLegalHold(
  up: Upstream,
  ctx: RequestContext,
  input: ObjectKey,
): Promise<boolean> {
  checkBucket(up, input.bucket);
  const out = await call(ctx, 'object', (o) =>
    up.client.send(new GetObjectLegalHoldCommand(keyFields(input)), o),
  );
  return out.LegalHold?.Status === 'ON';
}

export async function putObjectLegalHold(
  up: Upstream,
  ctx: RequestContext,
  input: ObjectKey,
  on: boolean,
): Promise<void> {
  checkBucket(up, input.bucket);
  await call(ctx, 'object', (o) =>
    up.client.send(
      new PutObjectLegalHoldCommand({ ...keyFields(input), LegalHold: { Status: on ? 'ON' : 'OFF' } }),
      o,
    ),
  );
}

export async function getObjectAcl(
  up: Upstream,
  ctx: RequestContext,
  input: ObjectKey,
): Promise<ObjectAclOutput> {
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
}

export async function putObjectAcl(
  up: Upstream,
  ctx: RequestContext,
  input: ObjectKey,
  acl: ObjectAclOutput,
): Promise<void> {
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
}

export async function restoreObject(up: Upstream, ctx: RequestContext, input: ObjectKey): Promise<void> {
  checkBucket(up, input.bucket);
  await call(ctx, 'object', (o) => up.client.send(new RestoreObjectCommand(keyFields(input)), o));
}
