// The RDMA plugin's middleware at the gateway's `afterAuthenticate` step: refuses any RDMA header
// under SigV2 (rdma-signing.ts: 400 InvalidRequest), reads the RDMA headers into a descriptor (cu-middleware's readRdmaRequest: malformed token 400, RC-style 501), then
// makes the trust decisions while the request is still at the edge (docs/protocol.md "trust
// rules"):
//   unsigned (anonymous) caller                 → declined: CuServer answers PUT 501 + decline,
//                                                 GET with the object by HTTP
//   agent not the caller's address, not allowed → 403 AccessDenied, before any connection
//   otherwise                                   → granted, with the agent and the payload hash
//                                                 the signature pins
// and hands the descriptor to the Backend's RequestContext (backendContext) for CuServer.
// Typed by the gateway's variables' shape only: this package does not depend on the gateway.
import type { RdmaDescriptor } from '@vgwrdma/backend-contract';
import { readRdmaRequest } from '@vgwrdma/cu-middleware';
import type { RdmaTransportKind } from '@vgwrdma/rdma-protocol';
import type { Context, Next } from 'hono';
import { type AgentPolicy, agentOf } from './agent-policy.js';
import { grantRdma, type RdmaGrant, type RdmaRequestRecord } from './rdma-grant.js';
import { type EdgeSigning, refuseRdmaUnderV2 } from './rdma-signing.js';

/** The gateway's authentication outcome, as far as the edge reads it. */
interface EdgeAuth {
  readonly anonymous: boolean;
  /** How the request was signed; absent when anonymous. */
  readonly signing?: EdgeSigning | undefined;
  readonly payload: { readonly kind: string; readonly sha256?: string };
}

/** The request variables and bindings the edge reads and writes (a gateway's, by shape). */
export type RdmaEdgeEnv = {
  Bindings: { incoming: { socket: { remoteAddress?: string | undefined } } };
  Variables: { auth: EdgeAuth; backendContext?: { rdma?: RdmaDescriptor } };
};

export interface RdmaEdgeOptions {
  readonly transport: RdmaTransportKind;
  readonly policy: AgentPolicy;
  /** Where the edge keeps each request's record, by its context (the plugin's observe() reads it). */
  readonly requests: WeakMap<object, RdmaRequestRecord>;
}

/** A middleware for any hono app whose environment includes the edge's (the gateway's does). */
export type RdmaEdgeMiddleware = <E extends RdmaEdgeEnv>(c: Context<E>, next: Next) => Promise<void>;

export function rdmaEdge(options: RdmaEdgeOptions): RdmaEdgeMiddleware {
  return async (ctx, next) => {
    // The edge reads and writes only RdmaEdgeEnv's variables, which E includes.
    const c = ctx as unknown as Context<RdmaEdgeEnv>;
    refuseRdmaUnderV2(Object.keys(c.req.header()), c.get('auth').signing);
    const descriptor = readRdmaRequest((name) => c.req.header(name), options.transport);
    if (descriptor === undefined) return next();
    const grant = decide(descriptor, c.get('auth'), c.env.incoming.socket.remoteAddress, options.policy);
    options.requests.set(c, grantRdma(descriptor, grant));
    c.set('backendContext', { ...c.get('backendContext'), rdma: descriptor });
    return next();
  };
}

/** The edge's decision on one descriptor; throws the 403 for an agent the caller may not name. */
export function decide(
  descriptor: RdmaDescriptor,
  auth: EdgeAuth,
  peerAddress: string | undefined,
  policy: AgentPolicy,
): RdmaGrant {
  if (auth.anonymous) return { kind: 'declined', reason: 'anonymous' };
  const agent = agentOf(descriptor);
  const refusal = policy.check(agent, peerAddress);
  if (refusal || agent === undefined) throw refusal;
  const sha256 = auth.payload.kind === 'signed' ? auth.payload.sha256 : undefined;
  return { kind: 'granted', agent, ...(sha256 === undefined ? {} : { payloadSha256: sha256 }) };
}
