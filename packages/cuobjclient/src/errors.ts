// Errors of the SDK, members of the VgwrdmaError family (docs/errors.md): callers branch on
// `code`, never on message text. A reply-validation error carries `gateway`, what the gateway actually answered (HTTP
// status, x-amz-rdma-reply, byte count, S3 error code/message), so a log line says who failed.

import { type VgwErrorCodeOf, VgwrdmaError } from '@vgwrdma/errors';

/** What a CuObjError is about (each code is explained in docs/errors.md). */
export type CuObjErrorCode = VgwErrorCodeOf<'CuObjError'>;

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

export class CuObjError extends VgwrdmaError<CuObjErrorCode> {
  override readonly name = 'CuObjError';
  /** What the gateway answered (reply-validation and gateway errors only). */
  readonly gateway: GatewayAnswer | undefined;

  constructor(
    code: CuObjErrorCode,
    message: string,
    options: { gateway?: GatewayAnswer; cause?: unknown } = {},
  ) {
    super(
      code,
      options.gateway ? `${message} (gateway answered: ${describeAnswer(options.gateway)})` : message,
      {
        cause: options.cause,
      },
    );
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
