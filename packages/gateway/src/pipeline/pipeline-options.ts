// What the pipeline's steps need from createGateway(): the backend (already decorated by the
// plugins), who may sign, the authorizer, the limits and switches. Built once per gateway.
import type { Backend } from '@vgwrdma/backend-contract';
import type { CredentialStore } from '../auth/index.js';
import type { Authorizer } from '../authz/index.js';
import type { CorsRule } from '../cors/index.js';
import type { EventNotifier } from '../events/index.js';
import type { Logger } from '../logger.js';
import type { RequestLimits } from '../routes/request-limits.js';
import type { Handler } from '../routes/types.js';

export interface PipelineOptions {
  /** The backend handlers call: the embedder's, under every plugin's decorator. */
  backend: Backend;
  credentials: CredentialStore;
  region: string;
  readonly: boolean;
  anonymousAccess: boolean;
  maxClockSkewMs?: number;
  /** Header prefixes beyond x-amz-* that SigV4 must sign (the plugins' signedHeaderPrefixes). */
  signedHeaderPrefixes?: readonly string[];
  /** Virtual-host–style requests: `bucket.<domain>`. */
  virtualHostDomain?: string;
  logger: Logger;
  /** A body that sends nothing for this long fails with RequestTimeout; 0: no limit. */
  bodyIdleTimeoutMs: number;
  /** Called each time a body is cut by the idle timeout (the limit counters). */
  onBodyIdleTimeout?: () => void;
  /** The ACL/policy step (and the bucket-state cache behind it and CORS). */
  authorizer: Authorizer;
  /** PATCH /<name> admin operations (create-user, ...), admin accounts only. */
  adminHandlers?: Readonly<Record<string, Handler>>;
  /** Bucket event notifications; absent: handlers' events go nowhere. */
  events?: EventNotifier;
  /** --mp-max-parts, --copy-object-threshold. */
  limits: RequestLimits;
  /** --cors-allow-origin: the CORS rule of buckets without a configuration of their own. */
  defaultCors?: CorsRule;
  /** The web console's rule (the app's --webui): its origin only, before any bucket's rules. */
  consoleCors?: CorsRule;
}
