// cuMiddleware(): the hono middleware that turns the RDMA request headers into a typed
// descriptor on the context (`c.get('rdma')`); readRdmaRequest() is the same reading for a caller
// with its own middleware (cu-backend's RDMA plugin, after authentication). Requests without RDMA
// headers pass through untouched. Refusals
// (docs/protocol.md) never carry x-amz-rdma-reply — the RDMA leg never started:
//   malformed token / legacy numbers / agent value, or a token with a body → 400
//   RC-style token → 501 NotImplemented (clients fall back to HTTP)

import { S3Error } from '@vgwrdma/backend-contract';
import {
  parseRdmaHeaders,
  type RdmaDescriptor,
  type RdmaRefusal,
  type RdmaTransportKind,
} from '@vgwrdma/rdma-protocol';
import type { Context, Env, MiddlewareHandler } from 'hono';
import { s3ErrorResponse } from './error-response.js';

/** The context variables cu-middleware reads (requestId, optional) and writes (rdma). */
export interface CuVariables {
  rdma?: RdmaDescriptor;
  requestId?: string;
}
export type CuEnv = { Variables: CuVariables };

export interface CuMiddlewareOptions {
  /**
   * 'respond' (default): answer refusals with an S3 error document here.
   * 'throw': throw the S3Error, for an app whose onError renders errors (the gateway).
   */
  readonly errors?: 'respond' | 'throw';
  /** The gateway's RDMA transport (what the token's DCTN field means); default 'softnic'. */
  readonly transport?: RdmaTransportKind;
}

export function cuMiddleware<E extends Env = CuEnv>(options: CuMiddlewareOptions = {}): MiddlewareHandler<E> {
  const mode = options.errors ?? 'respond';
  return async (ctx, next) => {
    const c = ctx as unknown as Context<CuEnv>;
    let descriptor: RdmaDescriptor | undefined;
    try {
      descriptor = readRdmaRequest((name) => c.req.header(name), options.transport);
    } catch (error) {
      return refuse(c, error as S3Error, mode);
    }
    if (descriptor !== undefined) c.set('rdma', descriptor);
    return next();
  };
}

/**
 * The request's RDMA descriptor from its headers (`header` looks one up by name), undefined when
 * it carries none; a refusal is thrown as the S3Error the gateway answers with.
 */
export function readRdmaRequest(
  header: (name: string) => string | undefined,
  transport?: RdmaTransportKind,
): RdmaDescriptor | undefined {
  const outcome = parseRdmaHeaders(header, transport === undefined ? {} : { transport });
  if (outcome.kind === 'refused') throw toS3Error(outcome.refusal);
  return outcome.kind === 'none' ? undefined : outcome.descriptor;
}

/** The protocol's refusal as the S3 error the gateway answers with (same code, status and text). */
function toS3Error(refusal: RdmaRefusal): S3Error {
  return S3Error.custom(refusal.code, refusal.message);
}

function refuse(c: Context<CuEnv>, error: S3Error, mode: 'respond' | 'throw'): Response {
  if (mode === 'throw') throw error;
  return s3ErrorResponse(error, new URL(c.req.url).pathname, c.get('requestId'), c.req.method);
}
