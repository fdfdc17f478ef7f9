// Reading a GetObject HTTP body (the fallback path) straight into a caller's buffer of exactly
// the session size, and draining the empty body of a completed RDMA GET.

import { CuObjError } from './errors.js';

type Body = AsyncIterable<Uint8Array> & { destroy?: (e?: Error) => void };

function asBody(body: unknown): Body | undefined {
  return body !== null && typeof body === 'object' && Symbol.asyncIterator in body
    ? (body as Body)
    : undefined;
}

/** Copies the body into `target`; throws VGW_ERR_CUOBJ_BODY_LENGTH unless it is exactly target.length long. */
export async function readBodyInto(body: unknown, target: Uint8Array): Promise<number> {
  const stream = asBody(body);
  if (!stream) throw new CuObjError('VGW_ERR_CUOBJ_BODY_LENGTH', 'GET: the response has no body to read');
  let at = 0;
  for await (const chunk of stream) {
    if (at + chunk.length > target.length) {
      stream.destroy?.();
      throw new CuObjError(
        'VGW_ERR_CUOBJ_BODY_LENGTH',
        `GET: the HTTP body is longer than the session size ${target.length}`,
      );
    }
    target.set(chunk, at);
    at += chunk.length;
  }
  if (at !== target.length) {
    throw new CuObjError(
      'VGW_ERR_CUOBJ_BODY_LENGTH',
      `GET: the HTTP body has ${at} bytes, expected ${target.length}`,
    );
  }
  return at;
}

/** Consumes an (expected empty) body so the connection goes back to the pool. */
export async function drainBody(body: unknown): Promise<void> {
  const stream = asBody(body);
  if (!stream) return;
  for await (const _ of stream) {
    // an RDMA GET body is empty; anything else is discarded
  }
}

/** Drops a body we will not read. */
export function discardBody(body: unknown): void {
  asBody(body)?.destroy?.();
}
