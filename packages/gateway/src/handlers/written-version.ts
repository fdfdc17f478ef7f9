// The x-amz-version-id of a write reply (PutObject, CopyObject, CompleteMultipartUpload). S3
// names the new version only where versioning is Enabled: a bucket that never had versioning
// writes no version, and a suspended one writes the `null` version, which S3 does not announce.
const NULL_VERSION = 'null';

export function writtenVersionId(versionId: string | undefined): string | undefined {
  return versionId === NULL_VERSION ? undefined : versionId;
}
