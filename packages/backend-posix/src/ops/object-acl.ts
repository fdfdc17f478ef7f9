// GetObjectAcl / PutObjectAcl: the object's `acl` attribute (meta/object-acl.ts), on the version
// the request names. An object without one (versitygw's) answers the bucket owner's
// FULL_CONTROL, marked inherited.
import type { BucketAcl, ObjectAclOutput, ObjectKey } from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { ATTR } from '../meta/attr-names.js';
import { decodeObjectAcl, encodeObjectAcl } from '../meta/object-acl.js';
import { getJson } from '../meta/store.js';
import { readBucketOwner } from './bucket-acl.js';
import { openObject } from './read-object.js';

export async function getObjectAcl(env: PosixEnv, input: ObjectKey): Promise<ObjectAclOutput> {
  const o = await openObject(env, input.bucket, input.key, input.versionId);
  try {
    const stored = await getJson<BucketAcl>(o.meta, o.rel, ATTR.acl, o.fh?.fd);
    return decodeObjectAcl(stored, stored ? '' : ((await readBucketOwner(env, input.bucket)) ?? ''));
  } finally {
    await o.fh?.close();
  }
}

export async function putObjectAcl(env: PosixEnv, input: ObjectKey, acl: ObjectAclOutput): Promise<void> {
  const o = await openObject(env, input.bucket, input.key, input.versionId);
  try {
    await o.meta.set(o.rel, ATTR.acl, encodeObjectAcl(acl));
  } finally {
    await o.fh?.close();
  }
}
