// errorCode: the `code` a backend call rejects with (S3Error('NoSuchKey').code, a coded
// VGW_ERR_* error's code), or undefined when the call succeeds — for tests that drive a Backend
// directly, where expect(await errorCode(p)).toBe('AccessDenied') reads as the S3 answer would.

/** Awaits `p`; undefined when it resolves, else the rejection's `code` property. */
export async function errorCode(p: Promise<unknown>): Promise<string | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    return (err as { code?: string }).code;
  }
}
