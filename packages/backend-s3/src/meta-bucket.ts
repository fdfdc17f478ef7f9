// Gateway-side bucket configuration kept in an upstream "meta bucket", one small object per
// bucket and kind: `vgw-meta-acl-<bucket>`, `vgw-meta-policy-<bucket>`, `vgw-meta-cors-<bucket>`
// (the names versitygw's s3 backend uses, so both gateways can share one meta bucket), plus
// `vgw-meta-website-<bucket>` and `vgw-meta-ownership-<bucket>` (object ownership controls: the
// gateway enforces them, and Ceph RGW 16.2 has none). These are things the gateway enforces or answers itself (owner
// and grants, policy, CORS), which an upstream with one set of credentials cannot hold per user.
import type { S3Client } from '@aws-sdk/client-s3';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { fromUpstream, upstreamErrorCode } from './upstream-error.js';

/** `uploadtags` is per upload, not per bucket (./upload-tagging.ts). */
export type MetaKind = 'acl' | 'policy' | 'cors' | 'website' | 'ownership' | 'uploadtags';

const CONTENT_TYPE: Readonly<Record<MetaKind, string>> = {
  acl: 'application/json',
  policy: 'application/json',
  cors: 'application/xml',
  website: 'application/xml',
  ownership: 'text/plain',
  uploadtags: 'application/x-www-form-urlencoded',
};

export function metaKey(kind: MetaKind, bucket: string): string {
  return `vgw-meta-${kind}-${bucket}`;
}

export class MetaBucket {
  constructor(
    private readonly client: S3Client,
    readonly bucket: string,
  ) {}

  /** The stored text, or undefined when none is stored. */
  async get(kind: MetaKind, bucket: string, signal?: AbortSignal): Promise<string | undefined> {
    try {
      const out = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: metaKey(kind, bucket) }),
        signal ? { abortSignal: signal } : {},
      );
      return (await out.Body?.transformToString('utf8')) ?? '';
    } catch (err) {
      if (upstreamErrorCode(err, 'object') === 'NoSuchKey') return undefined;
      throw fromUpstream(err, 'object');
    }
  }

  async put(kind: MetaKind, bucket: string, text: string, signal?: AbortSignal): Promise<void> {
    const body = Buffer.from(text, 'utf8');
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: metaKey(kind, bucket),
          Body: body,
          ContentLength: body.length,
          ContentType: CONTENT_TYPE[kind],
        }),
        signal ? { abortSignal: signal } : {},
      );
    } catch (err) {
      throw fromUpstream(err, 'object');
    }
  }

  /** Removes the stored text; a missing one is not an error. */
  async delete(kind: MetaKind, bucket: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.client.send(
        new DeleteObjectCommand({ Bucket: this.bucket, Key: metaKey(kind, bucket) }),
        signal ? { abortSignal: signal } : {},
      );
    } catch (err) {
      if (upstreamErrorCode(err, 'object') !== 'NoSuchKey') throw fromUpstream(err, 'object');
    }
  }
}
