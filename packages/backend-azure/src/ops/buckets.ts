// Buckets are containers. The owner and ACL live in the container's metadata, so ListBuckets can
// answer each account its own buckets and CreateBucket can tell BucketAlreadyOwnedByYou from
// BucketAlreadyExists. DeleteBucket refuses a container that holds any object (upload records
// of unfinished multipart uploads do not count, and go with it).
import type { BucketAcl, BucketSummary, ListBucketsOutput } from '@vgwrdma/backend-contract';
import { S3Error } from '@vgwrdma/backend-contract';
import { az, azureCode, toS3Error } from '../azure-error.js';
import { decodeJson, encodeJson } from '../blob-meta.js';
import { BUCKET_META, getSetting, putSetting, readBucketMeta } from '../container-meta.js';
import { type AzureOp, container, UPLOADS_PREFIX, type Upstream } from '../upstream.js';

async function allBuckets(up: Upstream, prefix?: string): Promise<BucketSummary[]> {
  const out: BucketSummary[] = [];
  const options = { includeMetadata: true, ...(prefix ? { prefix } : {}) };
  try {
    for await (const c of up.service.listContainers(options)) {
      const owner = decodeJson<string | undefined>(c.metadata?.[BUCKET_META.owner], undefined);
      out.push({
        name: c.name,
        creationDate: c.properties.lastModified,
        ...(owner === undefined ? {} : { owner }),
      });
    }
  } catch (err) {
    throw toS3Error(err);
  }
  // Container names are lower-case ASCII: code-unit order is S3's byte order.
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export const listBuckets: AzureOp<'listBuckets'> = async (up, _ctx, input) => {
  const all = (await allBuckets(up, input.prefix)).filter(
    (b) => input.owner === undefined || b.owner === input.owner,
  );
  const after = input.continuationToken;
  const rest = after === undefined ? all : all.filter((b) => b.name > after);
  const max = input.maxBuckets ?? rest.length;
  const page = rest.slice(0, max);
  const out: ListBucketsOutput = { buckets: page };
  const last = page.at(-1);
  if (rest.length > page.length && last) out.continuationToken = last.name;
  return out;
};

export const listBucketsAndOwners: AzureOp<'listBucketsAndOwners'> = async (up, _ctx) => {
  return allBuckets(up);
};

export const createBucket: AzureOp<'createBucket'> = async (up, _ctx, input) => {
  if (input.objectLockEnabled) {
    throw S3Error.custom('NotImplemented', 'the azure backend does not support object lock');
  }
  const metadata: Record<string, string> = {
    [BUCKET_META.owner]: encodeJson(input.owner),
    [BUCKET_META.acl]: encodeJson(input.acl),
  };
  if (input.ownership) metadata[BUCKET_META.ownership] = encodeJson(input.ownership);
  try {
    await container(up, input.bucket).create({ metadata });
  } catch (err) {
    if (azureCode(err) !== 'ContainerAlreadyExists') throw toS3Error(err);
    const owner = await getSetting<string>(container(up, input.bucket), 'owner');
    // A container made by another tool has no recorded owner: it is nobody's (an admin's owner
    // change gives it one), never the first caller's.
    const owned = owner !== undefined && owner !== '' && owner === input.owner;
    throw new S3Error(owned ? 'BucketAlreadyOwnedByYou' : 'BucketAlreadyExists');
  }
};

export const headBucket: AzureOp<'headBucket'> = async (up, _ctx, bucket) => {
  await readBucketMeta(container(up, bucket));
  return {};
};

export const deleteBucket: AzureOp<'deleteBucket'> = async (up, _ctx, bucket) => {
  const c = container(up, bucket);
  try {
    for await (const blob of c.listBlobsFlat()) {
      if (!blob.name.startsWith(UPLOADS_PREFIX)) throw new S3Error('BucketNotEmpty');
    }
  } catch (err) {
    throw toS3Error(err);
  }
  await az(() => c.delete());
};

export const getBucketAcl: AzureOp<'getBucketAcl'> = async (up, _ctx, bucket) => {
  const c = container(up, bucket);
  const meta = await readBucketMeta(c);
  const acl = decodeJson<BucketAcl | undefined>(meta[BUCKET_META.acl], undefined);
  if (acl) return acl;
  // A container made by another tool: owned by whoever the gateway is told owns it (none yet).
  return { Owner: decodeJson<string>(meta[BUCKET_META.owner], ''), Grantees: [] };
};

export const putBucketAcl: AzureOp<'putBucketAcl'> = async (up, _ctx, bucket, acl) => {
  await putSetting(container(up, bucket), 'acl', acl);
};

export const changeBucketOwner: AzureOp<'changeBucketOwner'> = async (up, ctx, bucket, owner) => {
  const acl = await getBucketAcl(up, ctx, bucket);
  const c = container(up, bucket);
  await putSetting(c, 'owner', owner);
  await putSetting(c, 'acl', { ...acl, Owner: owner });
};
