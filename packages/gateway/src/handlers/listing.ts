// ListObjects (v1), ListObjectsV2 and ListObjectVersions, with encoding-type=url, fetch-owner,
// max-keys (default 1000, clamped), markers, start-after and continuation tokens. Values the
// client sent come back as sent (XML-escaped) unless encoding-type=url asked for encoding.
import { type ListedObject, S3Error } from '@vgwrdma/backend-contract';
import { intParam, queryValue } from '../http/headers.js';
import type { Handler, S3Request } from '../routes/types.js';
import { each, el, group, xmlDocument } from '../xml/document.js';
import { ownerElement } from '../xml/owner.js';
import { type Encoder, encoderFor } from '../xml/url-encoding.js';
import { opt, xmlResponse } from './respond.js';

const MAX_KEYS = 1000;

function common(req: S3Request) {
  return {
    prefix: queryValue(req.query, 'prefix'),
    delimiter: queryValue(req.query, 'delimiter'),
    maxKeys: intParam(req.query, 'max-keys', { min: 0, max: MAX_KEYS, default: MAX_KEYS }) ?? MAX_KEYS,
  };
}

function contents(objects: readonly ListedObject[], encode: Encoder, withOwner: boolean): string {
  return each(objects, (o) =>
    group(
      'Contents',
      el('Key', encode(o.key)) +
        el('LastModified', o.lastModified) +
        el('ETag', o.etag) +
        each(o.checksumAlgorithm, (a) => el('ChecksumAlgorithm', a)) +
        el('Size', o.size) +
        (withOwner ? ownerElement('Owner', o.owner) : '') +
        el('StorageClass', o.storageClass),
    ),
  );
}

function commonPrefixes(prefixes: readonly string[], encode: Encoder): string {
  return each(prefixes, (p) => group('CommonPrefixes', el('Prefix', encode(p))));
}

export const listObjectsV1: Handler = async (_c, req) => {
  const { encode, encodingType } = encoderFor(req.query);
  const { prefix, delimiter, maxKeys } = common(req);
  const marker = queryValue(req.query, 'marker');
  const out = await req.backend.listObjects(req.ctx, {
    bucket: req.bucket,
    maxKeys,
    // ListObjects (v1) always names each object's owner; only v2 makes it optional.
    fetchOwner: true,
    ...opt('prefix', prefix),
    ...opt('delimiter', delimiter),
    ...opt('marker', marker),
  });
  // S3 sends NextMarker only with a delimiter; without one the last key is the marker.
  const nextMarker = out.isTruncated && delimiter !== undefined ? out.nextMarker : undefined;
  const doc = xmlDocument(
    'ListBucketResult',
    el('Name', req.bucket) +
      // v1 echoes its Prefix as sent, even under encoding-type=url: S3 clients (boto3, which
      // asks for url encoding on every listing) decode Marker and keys but not this Prefix.
      el('Prefix', prefix ?? '') +
      el('Marker', encode(marker ?? '')) +
      el('NextMarker', encode(nextMarker)) +
      el('MaxKeys', maxKeys) +
      el('Delimiter', encode(delimiter)) +
      el('EncodingType', encodingType) +
      el('IsTruncated', out.isTruncated) +
      contents(out.contents, encode, true) +
      commonPrefixes(out.commonPrefixes, encode),
  );
  return xmlResponse(doc);
};

export const listObjectsV2: Handler = async (_c, req) => {
  if (req.query.get('list-type') !== '2') {
    throw new S3Error('InvalidArgument', undefined, {
      detail: { ArgumentName: 'list-type', ArgumentValue: req.query.get('list-type') ?? '' },
    });
  }
  const { encode, encodingType } = encoderFor(req.query);
  const { prefix, delimiter, maxKeys } = common(req);
  const fetchOwner = req.query.get('fetch-owner') === 'true';
  const continuationToken = queryValue(req.query, 'continuation-token');
  // An empty continuation-token starts from the beginning and is echoed as <ContinuationToken/>.
  const echoedToken = req.query.get('continuation-token') ?? undefined;
  const startAfter = queryValue(req.query, 'start-after');
  const out = await req.backend.listObjectsV2(req.ctx, {
    bucket: req.bucket,
    maxKeys,
    ...(fetchOwner ? { fetchOwner } : {}),
    ...opt('prefix', prefix),
    ...opt('delimiter', delimiter),
    ...opt('continuationToken', continuationToken),
    ...opt('startAfter', startAfter),
  });
  const doc = xmlDocument(
    'ListBucketResult',
    el('Name', req.bucket) +
      el('Prefix', encode(prefix ?? '')) +
      el('MaxKeys', maxKeys) +
      el('Delimiter', encode(delimiter)) +
      el('EncodingType', encodingType) +
      el('IsTruncated', out.isTruncated) +
      el('KeyCount', out.contents.length + out.commonPrefixes.length) +
      el('ContinuationToken', echoedToken) +
      el('NextContinuationToken', out.isTruncated ? out.nextContinuationToken : undefined) +
      el('StartAfter', encode(startAfter)) +
      contents(out.contents, encode, fetchOwner) +
      commonPrefixes(out.commonPrefixes, encode),
  );
  return xmlResponse(doc);
};

export const listObjectVersions: Handler = async (_c, req) => {
  const { encode, encodingType } = encoderFor(req.query);
  const { prefix, delimiter, maxKeys } = common(req);
  const keyMarker = queryValue(req.query, 'key-marker');
  const versionIdMarker = queryValue(req.query, 'version-id-marker');
  const out = await req.backend.listObjectVersions(req.ctx, {
    bucket: req.bucket,
    maxKeys,
    ...opt('prefix', prefix),
    ...opt('delimiter', delimiter),
    ...opt('keyMarker', keyMarker),
    ...opt('versionIdMarker', versionIdMarker),
  });
  // Versions and delete markers are interleaved in key order, newest first per key.
  const entries = [
    ...out.versions.map((v) => ({
      key: v.key,
      at: v.lastModified.getTime(),
      id: v.versionId,
      xml: versionXml(v, encode),
    })),
    ...out.deleteMarkers.map((d) => ({
      key: d.key,
      at: d.lastModified.getTime(),
      id: d.versionId,
      xml: group(
        'DeleteMarker',
        el('Key', encode(d.key)) +
          el('VersionId', d.versionId) +
          el('IsLatest', d.isLatest) +
          el('LastModified', d.lastModified) +
          ownerElement('Owner', d.owner),
      ),
    })),
  ].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : b.at - a.at || newerId(a.id, b.id)));
  const doc = xmlDocument(
    'ListVersionsResult',
    el('Name', req.bucket) +
      el('Prefix', encode(prefix ?? '')) +
      el('KeyMarker', encode(keyMarker ?? '')) +
      el('VersionIdMarker', versionIdMarker ?? '') +
      el('NextKeyMarker', encode(out.nextKeyMarker)) +
      el('NextVersionIdMarker', out.nextVersionIdMarker) +
      el('MaxKeys', maxKeys) +
      el('Delimiter', encode(delimiter)) +
      el('EncodingType', encodingType) +
      el('IsTruncated', out.isTruncated) +
      entries.map((e) => e.xml).join('') +
      commonPrefixes(out.commonPrefixes, encode),
  );
  return xmlResponse(doc);
};

/**
 * Versions of one key written in the same millisecond: ULID ids grow with time, so the greater
 * id is the newer; `null` sorts as the older.
 */
function newerId(a: string, b: string): number {
  if (a === b) return 0;
  if (a === 'null') return 1;
  if (b === 'null') return -1;
  return a < b ? 1 : -1;
}

function versionXml(v: import('@vgwrdma/backend-contract').ListedVersion, encode: Encoder): string {
  return group(
    'Version',
    el('Key', encode(v.key)) +
      el('VersionId', v.versionId) +
      el('IsLatest', v.isLatest) +
      el('LastModified', v.lastModified) +
      el('ETag', v.etag) +
      el('Size', v.size) +
      ownerElement('Owner', v.owner) +
      el('StorageClass', v.storageClass),
  );
}
