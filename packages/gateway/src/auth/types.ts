// The typed edges of authentication (SigV4 and SigV2): what the router hands in (the request as it came off
// the wire) and what it gets back (who signed it and how the body must be verified).
import type { Account } from '@vgwrdma/backend-contract';

export interface Credential {
  secret: string;
  account: Account;
}

export interface CredentialStore {
  lookup(accessKey: string): Promise<Credential | undefined>;
  /** The account with this e-mail address (ACL grants by e-mail); stores without e-mails leave it out. */
  findByEmail?(email: string): Promise<Account | undefined>;
}

/** Node's IncomingHttpHeaders shape: lower-case names, repeated headers as arrays. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

export interface AuthInput {
  method: string;
  /** Path exactly as on the wire (percent-encoded), without the query. */
  rawPath: string;
  /** Query string as on the wire, without the '?'. */
  rawQuery: string;
  headers: RequestHeaders;
  /** The bucket a virtual-host–style request names in Host (SigV2 signs it in the resource). */
  virtualHostBucket?: string;
  /** The clock to check skew and expiry against (tests); defaults to the current time. */
  now?: Date;
}

/** How the request body has to be read and verified (see body/decodeBody). */
export type PayloadMode =
  | { kind: 'none' }
  | { kind: 'unsigned' }
  | { kind: 'signed'; sha256: string }
  | {
      kind: 'streaming-signed';
      trailer: boolean;
      seedSignature: string;
      signingKey: Buffer;
      amzDate: string;
      scope: string;
    }
  | { kind: 'streaming-unsigned-trailer' };

export interface AuthResult {
  account: Account;
  anonymous: boolean;
  presigned: boolean;
  payload: PayloadMode;
  /** The access key that signed the request ('' when anonymous). */
  accessKey: string;
  /** Lower-case names of the headers covered by the signature (empty when anonymous). */
  signedHeaders: readonly string[];
  /** How the request was signed (the policy keys s3:signatureversion, s3:authType ...); absent when anonymous. */
  signing?: SigningFacts;
}

/**
 * What a verified signature establishes beyond the signer: the facts bucket policies test with
 * s3:signatureversion, s3:authType, s3:signatureAge and s3:x-amz-content-sha256.
 */
export interface SigningFacts {
  /** 'AWS' for Signature Version 2, 'AWS4-HMAC-SHA256' for version 4 (AWS's values). */
  readonly version: 'AWS' | 'AWS4-HMAC-SHA256';
  /** The Authorization header, a presigned URL's query, or a POST form's fields. */
  readonly authType: 'REST-HEADER' | 'REST-QUERY-STRING' | 'POST';
  /** When the signer signed: SigV4's X-Amz-Date, SigV2's Date; absent where the request names none (SigV2 URLs). */
  readonly signedAt?: Date;
  /** The payload claim the signature covers (x-amz-content-sha256, UNSIGNED-PAYLOAD for a URL), when there is one. */
  readonly contentSha256?: string;
}

export interface AuthOptions {
  region: string;
  /** The service in the credential scope; 's3' unless told otherwise. */
  service?: string;
  /** Largest accepted difference between the request time and now; 15 minutes by default. */
  maxSkewMs?: number;
  /** Largest accepted X-Amz-Expires; 604800 (one week) by default and never more. */
  maxPresignSeconds?: number;
  /**
   * Lower-case header name prefixes beyond x-amz-* whose headers a SigV4 signature must cover
   * when present (the plugins' GatewayPlugin.signedHeaderPrefixes); else 403 AccessDenied.
   */
  signedHeaderPrefixes?: readonly string[];
}

export const DEFAULT_MAX_SKEW_MS = 15 * 60 * 1000;
export const MAX_PRESIGN_SECONDS = 604_800;
