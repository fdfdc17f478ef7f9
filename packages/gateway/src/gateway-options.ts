// GatewayOptions: what createGateway() takes — the backend, who may sign, the plugins, the limits
// and switches. The per-request values the pipeline's steps hand on are in env.ts.
import type { Backend } from '@vgwrdma/backend-contract';
import type { MiddlewareHandler } from 'hono';
import type { CredentialStore } from './auth/index.js';
import type { BucketStateCacheOptions } from './authz/index.js';
import type { GatewayEnv } from './env.js';
import type { EventNotificationOptions } from './events/index.js';
import type { IamStore } from './iam/index.js';
import type { Logger } from './logger.js';
import type { RequestObserver } from './observe/index.js';
import type { GatewayPlugin } from './plugins/index.js';
import type { Handler } from './routes/types.js';

export interface GatewayOptions {
  backend: Backend;
  /** Who may sign requests. Optional when `iam` is given (which then serves lookups). */
  credentials?: CredentialStore;
  /** Multi-user accounts (root + users.json) and the admin user API over them. */
  iam?: IamStore;
  /** versitygw's --disable-acl: bucket ACLs can be neither set nor used for access. */
  disableAcl?: boolean;
  /** Bounds of the per-bucket ACL/policy/ownership/CORS cache. */
  bucketStateCache?: BucketStateCacheOptions;
  /** Region in SigV4 scopes and GetBucketLocation answers. Default 'us-east-1'. */
  region?: string;
  /**
   * Add-ons (the RDMA data path: cu-backend's rdmaPlugin). Each installs itself once, in this
   * order: middlewares at named pipeline steps, a backend decorator, admin operations, readiness,
   * observation fields; `Gateway.shutdown()` shuts them down in reverse order between the HTTP
   * server and the backend (plugins/gateway-plugin.ts, docs/architecture.md).
   */
  plugins?: readonly GatewayPlugin[];
  /** Run at the `beforeTarget` step after the plugins' middlewares there, before the target step. */
  middlewares?: MiddlewareHandler<GatewayEnv>[];
  /** A path answered 200 without authentication (liveness: load-balancer checks). */
  healthPath?: string;
  /**
   * A path answered without authentication with 200 when the backend answers a cheap probe and
   * every plugin reports ready, 503 otherwise (readiness), with the checks as JSON.
   */
  readyPath?: string;
  /**
   * Extra admin operations, served like versitygw's user API: `PATCH /<name>`, SigV4-signed by an
   * admin account (others get AccessDenied). Given here, a name replaces a built-in or plugin one.
   */
  adminHandlers?: Readonly<Record<string, Handler>>;
  /** Refuse every write with AccessDenied. */
  readonly?: boolean;
  /** pino-compatible; default writes warnings and errors to stderr as JSON. */
  logger?: Logger;
  /** Log one line per request at info level (the RequestObservation as JSON). Default false. */
  accessLog?: boolean;
  /**
   * Called once per request when its response has ended or its connection closed, with the S3
   * operation, status, error code, bytes, timings and the plugins' observation fields (metrics, custom access logs).
   */
  observers?: readonly RequestObserver[];
  /** Largest accepted difference between the request's date and ours. Auth's default when unset. */
  maxClockSkewMs?: number;
  /** Node's requestTimeout for the whole request; 0 (default) = none, so large PUTs are not cut off. */
  requestTimeoutMs?: number;
  /**
   * How long shutdown() lets in-flight requests finish (default 30 000). Those still running then
   * are cut: their access-log line has status 499 and `cut: "shutdown"`, limitStats().cutAtShutdown
   * counts them, and their handlers unwind (temp files discarded) before the backend shuts down.
   */
  shutdownTimeoutMs?: number;
  /**
   * A request body (PUT, UploadPart, POST form, XML) that sends nothing for this long while the
   * gateway reads it fails with 400 RequestTimeout and its connection is closed. Default 60 000;
   * 0 = no limit.
   */
  bodyIdleTimeoutMs?: number;
  /** Open connections beyond this are closed as soon as accepted (Node's maxConnections). 0/unset: no cap. */
  maxConnections?: number;
  /** S3 requests in flight beyond this get 503 SlowDown (the health path is exempt). 0/unset: no cap. */
  maxRequests?: number;
  /**
   * Also accept virtual-host–style requests: a Host of `<bucket>.<domain>` names the bucket and
   * the whole path is the key. Unset (default): path-style only.
   */
  virtualHostDomain?: string;
  /** Serve unsigned requests as the anonymous account. Default false (AccessDenied). */
  anonymousAccess?: boolean;
  /**
   * Bucket event notifications: PutBucketNotificationConfiguration is accepted, and events of
   * configured buckets are POSTed to `webhookUrl` (queued, retried, never blocking a request).
   * Absent: configurations are refused (no destination can be validated).
   */
  eventNotifications?: EventNotificationOptions;
  /** versitygw's --mp-max-parts: part numbers run 1..this (default and at most 10000). */
  multipartMaxParts?: number;
  /**
   * versitygw's --copy-object-threshold: a CopyObject whose source is larger than this many
   * bytes is refused with 400 InvalidRequest (default 5 GiB, S3's own limit).
   */
  copyObjectThreshold?: number;
  /**
   * versitygw's --cors-allow-origin: buckets without a CORS configuration (and service-level
   * and admin requests) answer browsers from this origin (`*` for any) as if configured with
   * one rule allowing it GET, PUT, POST, DELETE and HEAD with any header.
   */
  corsAllowOrigin?: string;
  /**
   * The web console's origins (the app's --webui): their browsers get CORS answers for every S3
   * and admin request — preflights included, before and whatever any bucket's configuration
   * says — and no other origin gains anything. Exact origins such as `https://console.example`.
   */
  consoleOrigins?: readonly string[];
}
