// The coded failures the Session tests assert on: a call that must reject with a CuObjError
// (anything else it rejects with is rethrown, so a stray TypeError is not mistaken for one), its
// code, and Session.open's refusal (a session that did open is closed before the test fails).
import { rejectionOf } from '@vgwrdma/test-kit/scene';
import { CuObjError, type CuObjErrorCode, Session, type SessionOptions } from '../src/index.js';

/** The CuObjError `p` rejects with; fails the test when it resolves. */
export async function errorOf(p: Promise<unknown>): Promise<CuObjError> {
  const e = await rejectionOf(p, 'the call (a CuObjError)');
  if (e instanceof CuObjError) return e;
  throw e;
}

/** The code of the CuObjError `p` rejects with. */
export async function codeOf(p: Promise<unknown>): Promise<CuObjErrorCode> {
  return (await errorOf(p)).code;
}

/** The CuObjError Session.open(o) fails with. */
export function openError(o: SessionOptions): Promise<CuObjError> {
  return errorOf(Session.open(o).then((s) => s.close()));
}
