// What a route row is made of, and the request every handler receives: parsed once by the
// router (target, auth, context, body) so handlers only map HTTP to backend calls and back.

import type { Account, Backend, RequestContext } from '@vgwrdma/backend-contract';
import type { Context } from 'hono';
import type { AuthResult, CredentialStore, SigningFacts } from '../auth/index.js';
import type { BucketState } from '../authz/bucket-state.js';
import type { DecodedBody } from '../body/index.js';
import type { GatewayEnv } from '../env.js';
import type { EventSink } from '../events/index.js';
import type { RawHeaders } from '../http/headers.js';
import type { Logger } from '../logger.js';
import type { RequestLimits } from './request-limits.js';

export type RouteMethod = 'GET' | 'HEAD' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';
export type RouteTarget = 'service' | 'bucket' | 'object';

/**
 * Query parameters that select an operation. The order is the precedence when a request names
 * several. Those without a route answer NotImplemented rather than falling through to a plain
 * GET/PUT (which would, say, list a bucket for `?lifecycle`).
 */
export const SUBRESOURCES = [
  'uploadId',
  'uploads',
  'delete',
  'tagging',
  'acl',
  'policy',
  'versioning',
  'cors',
  'website',
  'ownershipControls',
  'object-lock',
  'retention',
  'legal-hold',
  'location',
  'versions',
  'list-type',
  'attributes',
  'restore',
  'notification',
  'change-bucket-owner',
  'list-buckets-and-owners',
  'publicAccessBlock',
  'policyStatus',
  // Known S3 sub-resources this gateway does not implement.
  'lifecycle',
  'replication',
  'logging',
  'encryption',
  'analytics',
  'metrics',
  'inventory',
  'intelligent-tiering',
  'accelerate',
  'requestPayment',
  'torrent',
  'select',
  'renameObject',
  'session',
] as const;
export type Subresource = (typeof SUBRESOURCES)[number];

/** Headers that select an operation among rows with the same method, target and sub-resource. */
type SelectorHeader = 'x-amz-copy-source';

export interface RouteFlags {
  /** Changes state: refused in read-only mode. */
  readonly write?: boolean;
  /** 'stream': the handler gets the decoded body as a stream; 'xml': as text (bounded). */
  readonly body?: 'stream' | 'xml';
  /** Only admin accounts. */
  readonly admin?: boolean;
  /** POST object: the form, not the request, says who is asking; the handler authorizes. */
  readonly form?: boolean;
}

/** Who a POST form turned out to come from, for the authorization step the router deferred. */
export interface FormPrincipal {
  readonly account: Account;
  readonly anonymous: boolean;
  readonly key: string;
  /** The form's fields as the equivalent PutObject's headers. */
  readonly headers: RawHeaders;
  /** How the form was signed (s3:authType POST); undefined when anonymous. */
  readonly signing?: SigningFacts;
}

/** What a form route's handler needs beyond an ordinary request. */
interface FormContext {
  readonly credentials: CredentialStore;
  /** The ACL/policy step, run once the form has named its key and signer. */
  authorize(who: FormPrincipal): Promise<void>;
  /** The bucket came from the Host header (the object URL has no bucket segment). */
  readonly virtualHost: boolean;
  /** The body idle timeout (ms; 0: none): a form that sends nothing this long fails with RequestTimeout. */
  readonly idleTimeoutMs: number;
  /** Called when the idle timeout cuts the form (the gateway counts these). */
  readonly onIdleTimeout?: () => void;
}

/** The request as a handler sees it. */
export interface S3Request {
  readonly method: RouteMethod;
  /** '' for service requests. */
  readonly bucket: string;
  /** '' for service and bucket requests. */
  readonly key: string;
  readonly query: URLSearchParams;
  readonly headers: RawHeaders;
  readonly ctx: RequestContext;
  readonly account: Account;
  readonly auth: AuthResult;
  /** Present for routes with a body flag. */
  readonly body: DecodedBody | undefined;
  readonly backend: Backend;
  /** The bucket's access state as the ACL/policy step read it (absent where it read none). */
  readonly bucketState?: BucketState;
  /** The accounts (ACL grantee ids, e-mail addresses and display names resolve against them). */
  readonly accounts: CredentialStore;
  readonly region: string;
  readonly logger: Logger;
  /** Present for form routes (POST object). */
  readonly form?: FormContext;
  /** Where handlers report object events (bucket notifications); absent when they are off. */
  readonly events?: EventSink;
  /** --mp-max-parts, --copy-object-threshold (routes/request-limits.ts). */
  readonly limits: RequestLimits;
}

export type Handler = (c: Context<GatewayEnv>, req: S3Request) => Promise<Response>;

export interface RouteRow {
  readonly method: RouteMethod;
  readonly target: RouteTarget;
  readonly subresource?: Subresource;
  readonly header?: SelectorHeader;
  /** The S3 operation's name as AWS spells it (GetObject, ListObjectsV2): metrics and access logs. */
  readonly operation: string;
  /** The IAM-style action, for policy evaluation and logs. */
  readonly action: `s3:${string}` | `admin:${string}`;
  readonly handler: Handler;
  readonly flags?: RouteFlags;
}
