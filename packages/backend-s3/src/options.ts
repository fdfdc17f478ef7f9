// The options of an S3Backend: where the upstream store is and how to talk to it. Names follow
// versitygw's `s3` backend flags (--endpoint, --region, --access/--secret, --anonymous-credentials,
// --use-path-style, --ssl-skip-verify, --disable-checksum, --meta-bucket).

export interface S3BackendOptions {
  /** Upstream endpoint URL (http:// or https://); AWS S3 for the region when omitted. */
  endpoint?: string;
  /** Upstream region, used for signing. Default 'us-east-1'. */
  region?: string;
  /** Static upstream credentials; the AWS default credential chain when omitted. */
  access?: string;
  secret?: string;
  /** Send unsigned requests (public buckets); overrides access/secret and the chain. */
  anonymous?: boolean;
  /** Path-style addressing (`endpoint/bucket/key`), as MinIO, Ceph RGW and gateways usually need. */
  usePathStyle?: boolean;
  /** Accept any TLS certificate from the upstream (self-signed test clusters only). */
  sslSkipVerify?: boolean;
  /**
   * Send no flexible checksums upstream (for stores that reject aws-chunked trailers). Checksums
   * the client sent are still verified here; the upstream then stores only what it computes.
   */
  disableChecksum?: boolean;
  /**
   * An existing upstream bucket where gateway-side bucket ACLs, policies, CORS and website
   * configurations are kept (objects `vgw-meta-<kind>-<bucket>`). Hidden from listings and closed
   * to clients. Without it, bucket ownership is not tracked and those configurations are refused.
   */
  metaBucket?: string;
  /** Upper bound of pooled keep-alive sockets to the upstream. Default 256. */
  maxSockets?: number;
  /** Attempts per idempotent request (streamed uploads are never retried). Default 3. */
  maxAttempts?: number;
  /**
   * Bodies of unknown length (HTTP chunked, aws-chunked without a decoded length, POST form
   * files): up to this many bytes are spooled and sent as one PutObject with a Content-Length;
   * a longer body goes upstream as a multipart upload in parts of this size. 5 MiB..5 GiB,
   * default 16 MiB.
   */
  uploadPartSize?: number;
  /** Bytes of one spooled stretch kept in memory before it spills to a temp file. Default 1 MiB. */
  spoolMemory?: number;
  /** Directory of the spool's temp files (unlinked as soon as opened). Default the OS temp dir. */
  spoolDir?: string;
}

export const DEFAULT_REGION = 'us-east-1';
export const DEFAULT_MAX_SOCKETS = 256;
export const DEFAULT_MAX_ATTEMPTS = 3;
export const DEFAULT_UPLOAD_PART_SIZE = 16 * 1024 ** 2;
export const MIN_UPLOAD_PART_SIZE = 5 * 1024 ** 2;
export const MAX_UPLOAD_PART_SIZE = 5 * 1024 ** 3;
export const DEFAULT_SPOOL_MEMORY = 1024 ** 2;
