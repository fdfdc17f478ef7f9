// One S3 event record, in the JSON shape S3 sends (event structure version 2.1): the message body
// is `{"Records": [record]}`. Keys are URL-encoded as S3 encodes them (spaces as '+', slashes kept); eTag has
// no quotes; deletes carry no size or eTag. The sequencer grows within this process, so two
// events on one key order by it as S3's do.
import type { EventName } from './event-names.js';

/** What happened, as the handler that did it reports it. */
export interface ObjectEvent {
  readonly name: EventName;
  readonly key: string;
  /** Bytes of the new object; looked up when the handler does not know it (copy, multipart). */
  readonly size?: number;
  readonly etag?: string;
  readonly versionId?: string;
}

/** Who asked, where: the request's side of the record. */
export interface EventOrigin {
  readonly bucket: string;
  readonly bucketOwner: string;
  readonly principal: string;
  readonly sourceIp: string;
  readonly requestId: string;
  readonly region: string;
}

export interface S3EventRecord {
  readonly eventVersion: '2.1';
  readonly eventSource: 'aws:s3';
  readonly awsRegion: string;
  readonly eventTime: string;
  readonly eventName: EventName;
  readonly userIdentity: { readonly principalId: string };
  readonly requestParameters: { readonly sourceIPAddress: string };
  readonly responseElements: { readonly 'x-amz-request-id': string; readonly 'x-amz-id-2': string };
  readonly s3: {
    readonly s3SchemaVersion: '1.0';
    readonly configurationId: string;
    readonly bucket: {
      readonly name: string;
      readonly ownerIdentity: { readonly principalId: string };
      readonly arn: string;
    };
    readonly object: {
      readonly key: string;
      readonly size?: number;
      readonly eTag?: string;
      readonly versionId?: string;
      readonly sequencer: string;
    };
  };
}

let last = 0n;

/** A hex value larger than every one this process handed out before. */
export function nextSequencer(now = Date.now()): string {
  const candidate = BigInt(now) * 1_000_000n;
  last = candidate > last ? candidate : last + 1n;
  return last.toString(16).toUpperCase().padStart(18, '0');
}

/** S3's key encoding in event records: form-style URL encoding ('+' for spaces), '/' kept. */
export function encodeEventKey(key: string): string {
  return encodeURIComponent(key).replace(/%20/g, '+').replace(/%2F/g, '/');
}

export function eventRecord(
  origin: EventOrigin,
  event: ObjectEvent,
  configurationId: string,
  at: Date,
  sequencer: string,
): S3EventRecord {
  const etag = event.etag?.replace(/^"|"$/g, '');
  return {
    eventVersion: '2.1',
    eventSource: 'aws:s3',
    awsRegion: origin.region,
    eventTime: at.toISOString(),
    eventName: event.name,
    userIdentity: { principalId: origin.principal },
    requestParameters: { sourceIPAddress: origin.sourceIp },
    responseElements: {
      'x-amz-request-id': origin.requestId,
      'x-amz-id-2': Buffer.from(origin.requestId, 'latin1').toString('base64'),
    },
    s3: {
      s3SchemaVersion: '1.0',
      configurationId,
      bucket: {
        name: origin.bucket,
        ownerIdentity: { principalId: origin.bucketOwner },
        arn: `arn:aws:s3:::${origin.bucket}`,
      },
      object: {
        key: encodeEventKey(event.key),
        ...(event.size === undefined ? {} : { size: event.size }),
        ...(etag === undefined || etag === '' ? {} : { eTag: etag }),
        ...(event.versionId === undefined ? {} : { versionId: event.versionId }),
        sequencer,
      },
    },
  };
}
