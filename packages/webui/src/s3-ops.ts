// The S3 operations the pages use, each one signed REST call (s3.ts) and its answer read into a
// plain value. Listing is always one page (ListObjectsV2 with a delimiter and a continuation
// token), never a whole bucket.
import { S3ApiError } from './errors.js';
import { call, callXml, childrenNamed, textOf } from './s3.js';

export interface BucketRow {
  readonly name: string;
  readonly created: string;
}

export async function listBuckets(): Promise<BucketRow[]> {
  const doc = await callXml({ method: 'GET' });
  return childrenNamed(doc, 'Bucket', true).map((b) => ({
    name: textOf(b, 'Name') ?? '',
    created: textOf(b, 'CreationDate') ?? '',
  }));
}

export async function createBucket(
  name: string,
  opts: { versioning: boolean; objectLock: boolean },
): Promise<void> {
  await call({
    method: 'PUT',
    bucket: name,
    ...(opts.objectLock ? { headers: { 'x-amz-bucket-object-lock-enabled': 'true' } } : {}),
  });
  if (opts.versioning && !opts.objectLock) await putVersioning(name, 'Enabled');
}

export async function deleteBucket(name: string): Promise<void> {
  await call({ method: 'DELETE', bucket: name });
}

export interface ObjectRow {
  readonly key: string;
  readonly size: number;
  readonly modified: string;
  readonly etag: string;
}

export interface ListPage {
  readonly prefixes: string[];
  readonly objects: ObjectRow[];
  readonly next: string | undefined;
}

export async function listPage(
  bucket: string,
  prefix: string,
  token: string | undefined,
  max = 100,
): Promise<ListPage> {
  const doc = await callXml({
    method: 'GET',
    bucket,
    query: {
      'list-type': '2',
      delimiter: '/',
      'max-keys': String(max),
      prefix,
      ...(token === undefined ? {} : { 'continuation-token': token }),
    },
  });
  return {
    prefixes: childrenNamed(doc, 'CommonPrefixes', true).map((p) => textOf(p, 'Prefix') ?? ''),
    objects: childrenNamed(doc, 'Contents', true).map((c) => ({
      key: textOf(c, 'Key') ?? '',
      size: Number(textOf(c, 'Size') ?? 0),
      modified: textOf(c, 'LastModified') ?? '',
      etag: textOf(c, 'ETag') ?? '',
    })),
    next: textOf(doc, 'IsTruncated') === 'true' ? textOf(doc, 'NextContinuationToken') : undefined,
  };
}

export interface VersionRow {
  readonly key: string;
  readonly versionId: string;
  readonly latest: boolean;
  readonly deleteMarker: boolean;
  readonly size: number;
  readonly modified: string;
}

export async function listVersions(bucket: string, key: string): Promise<VersionRow[]> {
  const doc = await callXml({
    method: 'GET',
    bucket,
    query: { versions: '', prefix: key, 'max-keys': '100' },
  });
  const rows = (name: string, marker: boolean) =>
    childrenNamed(doc, name, true).map((v) => ({
      key: textOf(v, 'Key') ?? '',
      versionId: textOf(v, 'VersionId') ?? 'null',
      latest: textOf(v, 'IsLatest') === 'true',
      deleteMarker: marker,
      size: Number(textOf(v, 'Size') ?? 0),
      modified: textOf(v, 'LastModified') ?? '',
    }));
  return [...rows('Version', false), ...rows('DeleteMarker', true)]
    .filter((v) => v.key === key)
    .sort((a, b) => b.modified.localeCompare(a.modified));
}

export interface ObjectHead {
  readonly size: number;
  readonly type: string;
  readonly etag: string;
  readonly modified: string;
  readonly versionId: string | undefined;
  readonly metadata: [string, string][];
}

export async function headObject(bucket: string, key: string): Promise<ObjectHead> {
  const res = await call({ method: 'HEAD', bucket, key });
  const metadata: [string, string][] = [];
  res.headers.forEach((value, name) => {
    if (name.toLowerCase().startsWith('x-amz-meta-'))
      metadata.push([name.slice('x-amz-meta-'.length), value]);
  });
  return {
    size: Number(res.headers.get('content-length') ?? 0),
    type: res.headers.get('content-type') ?? '',
    etag: res.headers.get('etag') ?? '',
    modified: res.headers.get('last-modified') ?? '',
    versionId: res.headers.get('x-amz-version-id') ?? undefined,
    metadata,
  };
}

export async function deleteObject(bucket: string, key: string, versionId?: string): Promise<void> {
  await call({ method: 'DELETE', bucket, key, ...(versionId === undefined ? {} : { query: { versionId } }) });
}

export type TagSet = [string, string][];

function tagsOf(doc: Document): TagSet {
  return childrenNamed(doc, 'Tag', true).map((t) => [textOf(t, 'Key') ?? '', textOf(t, 'Value') ?? '']);
}

export function tagsXml(tags: TagSet): string {
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const body = tags.map(([k, v]) => `<Tag><Key>${esc(k)}</Key><Value>${esc(v)}</Value></Tag>`).join('');
  return `<Tagging><TagSet>${body}</TagSet></Tagging>`;
}

export async function getObjectTags(bucket: string, key: string): Promise<TagSet> {
  return tagsOf(await callXml({ method: 'GET', bucket, key, query: { tagging: '' } }));
}

export async function putObjectTags(bucket: string, key: string, tags: TagSet): Promise<void> {
  await call({ method: 'PUT', bucket, key, query: { tagging: '' }, body: tagsXml(tags) });
}

export async function getVersioning(bucket: string): Promise<string> {
  const doc = await callXml({ method: 'GET', bucket, query: { versioning: '' } });
  return textOf(doc, 'Status') ?? 'Off';
}

export async function putVersioning(bucket: string, status: 'Enabled' | 'Suspended'): Promise<void> {
  await call({
    method: 'PUT',
    bucket,
    query: { versioning: '' },
    body: `<VersioningConfiguration><Status>${status}</Status></VersioningConfiguration>`,
  });
}

/** A bucket sub-resource as text ('' when the bucket has none: the NoSuch… answer). */
export async function getSubresource(
  bucket: string,
  sub: string,
  missing: readonly string[],
): Promise<string> {
  try {
    const res = await call({ method: 'GET', bucket, query: { [sub]: '' } });
    return await res.text();
  } catch (error) {
    if (error instanceof S3ApiError && missing.includes(error.s3Code)) return '';
    throw error;
  }
}

export async function putSubresource(bucket: string, sub: string, body: string, type: string): Promise<void> {
  await call({ method: 'PUT', bucket, query: { [sub]: '' }, body, headers: { 'content-type': type } });
}

export async function deleteSubresource(bucket: string, sub: string): Promise<void> {
  await call({ method: 'DELETE', bucket, query: { [sub]: '' } });
}
