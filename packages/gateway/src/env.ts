// The typed hono environment every gateway middleware and handler shares: the request variables
// each pipeline step sets for the steps after it (pipeline/steps.ts has the order), and the Node
// bindings. createGateway()'s options are in gateway-options.ts.
import type { HttpBindings } from '@hono/node-server';
import type { Account, Backend, RequestContext } from '@vgwrdma/backend-contract';
import type { AuthResult } from './auth/index.js';
import type { AuthzOutcome } from './authz/index.js';
import type { DecodedBody } from './body/index.js';
import type { RequestTarget } from './http/request-target.js';
import type { RouteRow, RouteTarget } from './routes/types.js';
import type { ListenerRole } from './server/listen.js';

/** What the target step read from the request line and Host (names already validated). */
export interface ParsedTarget extends RequestTarget {
  /** The request method, upper-case. */
  readonly method: string;
  readonly kind: RouteTarget;
  /** The bucket named by a virtual-host–style Host, when there is one. */
  readonly hostBucket?: string;
}

/**
 * Fields a plugin adds to the Backend's RequestContext (the RDMA plugin: the descriptor of a
 * payload that moves by RDMA). Set before the authorize step, which builds the context.
 */
export type BackendContextFields = Omit<Partial<RequestContext>, 'account' | 'requestId' | 'signal'>;

export interface GatewayVariables {
  /** Echoed as x-amz-request-id and in error bodies (request-id middleware). */
  requestId: string;
  /** target step: the parsed, validated request target. */
  target: ParsedTarget;
  /** target step: the matched route-table row (or the admin row). */
  route: RouteRow;
  /** The matched route's S3 operation name (target step; metrics and access log). */
  operation?: string;
  /** The request's bucket and key as the target step parsed them (absent when none). */
  bucket?: string;
  key?: string;
  /** authenticate step: the authentication outcome, including how the body is framed. */
  auth: AuthResult;
  /** authenticate step: the authenticated account (ANONYMOUS for unsigned requests, when allowed). */
  account: Account;
  /** Plugins (afterTarget / afterAuthenticate): extra fields of the Backend's RequestContext. */
  backendContext?: BackendContextFields;
  /** authorize step: the context every Backend call of this request gets. */
  requestContext: RequestContext;
  /** authorize step: the ACL/policy outcome (bucket state; DeleteObjects' filtered backend). */
  authz: AuthzOutcome;
  /** authorize step: the backend the handler calls (the plugins' decorated one, or authz's view). */
  backend: Backend;
  /** body step: the decoded request body, for routes with a body flag. */
  body?: DecodedBody;
  /** The S3 error code of an error answer (set by the error handler). */
  errorCode?: string;
}

/** The Node request and response, plus which API the listener that took the request serves. */
export type GatewayBindings = HttpBindings & { listener?: ListenerRole };

export type GatewayEnv = { Bindings: GatewayBindings; Variables: GatewayVariables };
