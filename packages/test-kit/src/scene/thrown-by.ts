// thrownBy: the synchronous side of rejectionOf, for constructors and calls that throw. It calls
// the function, fails the test when it returns, and returns what it threw when that is an
// instance of the expected class; anything else is rethrown, so the test shows it as it was.
import { expect } from 'vitest';

/** Calls `fn`; fails the test when it returns, rethrows what is not a `type`, else returns it. */
export function thrownBy<E>(fn: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    fn();
  } catch (err) {
    if (err instanceof type) return err;
    throw err;
  }
  return expect.fail('expected the call to throw: it returned');
}
