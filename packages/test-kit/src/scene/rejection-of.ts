// rejectionOf: the generic side of expectS3Error, for calls that do not go through the SDK (a
// function of the gateway under test, a client library's own coded errors). It awaits the
// promise, fails the test when it resolves, and returns what it rejected with, typed as the caller
// expects, for the assertions that follow.
import { expect } from 'vitest';

/** Awaits `promise`; fails the test when it resolves, else returns the rejection as `E`. */
export async function rejectionOf<E = Error>(promise: Promise<unknown>, what = 'the call'): Promise<E> {
  try {
    await promise;
  } catch (err) {
    return err as E;
  }
  return expect.fail(`expected ${what} to fail: it succeeded`);
}
