// expectS3Error: the one way a test says "this request fails with S3 error CODE" (and, where it
// matters, with HTTP status STATUS). It awaits the promise, fails the test when it resolves, and
// returns the SDK's exception for further assertions (message, headers, $metadata).
import type { S3ServiceException } from '@aws-sdk/client-s3';
import { expect } from 'vitest';

/** What a rejected SDK call carries: the error code as `name`, the status in `$metadata`. */
function outcome(error: unknown): { code: unknown; status: unknown } {
  const e = error as Partial<S3ServiceException> | undefined;
  return { code: e?.name, status: e?.$metadata?.httpStatusCode };
}

/**
 * Awaits `promise` and asserts it rejects with S3 error `code` (the SDK's `name`: the body's
 * `<Code>`, or for a body-less HEAD the status name, e.g. 'NotFound') and, when given, HTTP
 * `status`. Returns the exception.
 */
export async function expectS3Error(
  promise: Promise<unknown>,
  code: string,
  status?: number,
): Promise<S3ServiceException> {
  let error: unknown;
  try {
    await promise;
  } catch (err) {
    error = err;
  }
  if (error === undefined)
    expect.fail(`expected S3 error ${code}${status ? ` (${status})` : ''}: the request succeeded`);
  const got = outcome(error);
  if (status === undefined) expect(got.code, `S3 error code (status ${got.status})`).toBe(code);
  else expect(got).toEqual({ code, status });
  return error as S3ServiceException;
}
