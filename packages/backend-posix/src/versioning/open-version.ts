// Reading a named version: the latest one at the object path when its `version-id` matches
// (absent = `null`), else the archived file in the versioning directory. A delete marker read
// by version answers MethodNotAllowed; a latest delete marker read without one, NoSuchKey; both
// carry `x-amz-delete-marker: true`, as S3 answers.
import { S3Error } from '@vgwrdma/backend-contract';
import type { PosixEnv } from '../env.js';
import { isErrno, missingObject, requireBucket } from '../fs/errors.js';
import { assertBucketName, isFolderKey } from '../fs/layout.js';
import { type OpenedObject, openFile, openLatest } from '../fs/open-object.js';
import { activeVersioning } from './current.js';
import { assertVersionId, NULL_VERSION, noSuchVersion } from './version-id.js';
import { versionAbs, versionRel } from './version-store.js';

function markerHeaders(versionId: string | undefined): Record<string, string> {
  return { 'x-amz-delete-marker': 'true', 'x-amz-version-id': versionId ?? NULL_VERSION };
}

/** GET/HEAD without a version id, the latest being a delete marker. */
export function markerAsMissing(key: string, versionId: string | undefined): S3Error {
  return new S3Error('NoSuchKey', undefined, { detail: { Key: key }, headers: markerHeaders(versionId) });
}

/** GET/HEAD of a delete marker by its version id. */
function markerNotAllowed(versionId: string): S3Error {
  return new S3Error('MethodNotAllowed', undefined, { headers: markerHeaders(versionId) });
}

/** Sets the version id an opened latest version answers with. */
export async function withVersionId(env: PosixEnv, bucket: string, o: OpenedObject): Promise<OpenedObject> {
  if (o.attrs.versionId !== undefined) o.versionId = o.attrs.versionId;
  else if ((await activeVersioning(env, bucket)) !== undefined) o.versionId = NULL_VERSION;
  return o;
}

export async function openVersion(
  env: PosixEnv,
  bucket: string,
  key: string,
  versionId: string,
): Promise<OpenedObject> {
  assertBucketName(bucket);
  assertVersionId(versionId);
  let latest: OpenedObject | undefined;
  try {
    latest = await openLatest(env, bucket, key);
  } catch (err) {
    if (!(err instanceof S3Error && err.code === 'NoSuchKey')) throw err;
  }
  if (latest) {
    if ((latest.attrs.versionId ?? NULL_VERSION) === versionId) {
      if (latest.attrs.deleteMarker) {
        await latest.fh?.close();
        throw markerNotAllowed(versionId);
      }
      latest.versionId = versionId;
      return latest;
    }
    await latest.fh?.close();
  }
  const store = env.versions;
  if (!store || isFolderKey(key)) {
    await requireBucket(env, bucket);
    throw noSuchVersion(key, versionId);
  }
  const vrel = versionRel(bucket, key, versionId);
  let o: OpenedObject;
  try {
    o = await openFile(store.meta, vrel, versionAbs(store, vrel), () => missingObject(env, bucket, key));
  } catch (err) {
    if (err instanceof S3Error || isErrno(err, 'ENOENT', 'ENOTDIR')) {
      await requireBucket(env, bucket);
      throw noSuchVersion(key, versionId);
    }
    throw err;
  }
  if (o.attrs.deleteMarker) {
    await o.fh?.close();
    throw markerNotAllowed(versionId);
  }
  o.versionId = versionId;
  return o;
}
