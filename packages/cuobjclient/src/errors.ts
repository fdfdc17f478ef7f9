// Errors of the SDK as values with codes (CONTRIBUTING.md, house style): callers branch on `code`, never on message
// text. A reply-validation error carries `gateway`, what the gateway actually answered (HTTP
// status, x-amz-rdma-reply, byte count, S3 error code/message), so a log line says who failed.

/** What a CuObjError is about. */
export type CuObjErrorCode =
  /** The platform, the native shim or a memory kind is missing: raised by Session.open. */
  | 'ERR_CUOBJ_UNAVAILABLE'
  /** Bad session options (size, limits, memory kind, env values). */
  | 'ERR_CUOBJ_INVALID_OPTION'
  /** A source/destination whose length is not the session size. */
  | 'ERR_CUOBJ_SIZE_MISMATCH'
  /** A second upload/download while one is in flight on the same session. */
  | 'ERR_CUOBJ_SESSION_BUSY'
  /** The session was closed. */
  | 'ERR_CUOBJ_SESSION_CLOSED'
  /** The gateway did not say it used RDMA (no x-amz-rdma-reply) where it had to. */
  | 'ERR_CUOBJ_NO_RDMA_REPLY'
  /** The gateway declined RDMA (x-amz-rdma-reply 501) and no fallback was allowed. */
  | 'ERR_CUOBJ_DECLINED'
  /** x-amz-rdma-reply carried a value this request cannot succeed with. */
  | 'ERR_CUOBJ_BAD_REPLY'
  /** The byte-count header is missing or differs from the session size. */
  | 'ERR_CUOBJ_BYTES_MISMATCH'
  /** The gateway answered with an S3 error (4xx/5xx) not covered above. */
  | 'ERR_CUOBJ_GATEWAY_ERROR'
  /** An HTTP-fallback body whose length is not the session size. */
  | 'ERR_CUOBJ_BODY_LENGTH'
  /** The data that arrived by RDMA does not match the object checksum the gateway sent. */
  | 'ERR_CUOBJ_CHECKSUM_MISMATCH'
  /** A host-memory operation on a memory: 'cuda' session (`buffer`), or a device one on a host session. */
  | 'ERR_CUOBJ_WRONG_MEMORY';

/** What the gateway answered, as far as the SDK saw it. */
export interface GatewayAnswer {
  readonly httpStatus?: number;
  /** Value of x-amz-rdma-reply; undefined when absent. */
  readonly rdmaReply?: string;
  /** Value of x-amz-rdma-bytes-transferred (or x-amz-rdma-bytes); undefined when absent. */
  readonly bytes?: string;
  /** S3 error code from the error body (e.g. 'NotImplemented'). */
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly requestId?: string;
}

export class CuObjError extends Error {
  override readonly name = 'CuObjError';
  readonly code: CuObjErrorCode;
  /** What the gateway answered (reply-validation and gateway errors only). */
  readonly gateway: GatewayAnswer | undefined;

  constructor(
    code: CuObjErrorCode,
    message: string,
    options: { gateway?: GatewayAnswer; cause?: unknown } = {},
  ) {
    super(options.gateway ? `${message} (gateway answered: ${describeAnswer(options.gateway)})` : message, {
      cause: options.cause,
    });
    this.code = code;
    this.gateway = options.gateway;
  }
}

/** One line such as `HTTP 501, x-amz-rdma-reply 501, NotImplemented: ...`. */
export function describeAnswer(a: GatewayAnswer): string {
  const parts: string[] = [];
  if (a.httpStatus !== undefined) parts.push(`HTTP ${a.httpStatus}`);
  parts.push(a.rdmaReply === undefined ? 'no x-amz-rdma-reply' : `x-amz-rdma-reply ${a.rdmaReply}`);
  if (a.bytes !== undefined) parts.push(`x-amz-rdma-bytes-transferred ${a.bytes}`);
  if (a.errorCode !== undefined)
    parts.push(a.errorMessage ? `${a.errorCode}: ${a.errorMessage}` : a.errorCode);
  if (a.requestId !== undefined) parts.push(`request id ${a.requestId}`);
  return parts.join(', ');
}

/** Whether `e` is a CuObjError (of the given code, when one is passed). */
export function isCuObjError(e: unknown, code?: CuObjErrorCode): e is CuObjError {
  return e instanceof CuObjError && (code === undefined || e.code === code);
}
