// Errors of the RDMA layer, members of the VgwrdmaError family (docs/errors.md): `RdmaError`
// (code VGW_ERR_RDMA_NATIVE) carries the negative errno the native side returned and its name,
// so callers branch on `errnoName` ('EIO', 'ETIMEDOUT', ...) instead of matching messages, and
// the shim's own text in `detail`. Why the library could not be loaded is @vgwrdma/native's
// NativeLoadError.

import { constants } from 'node:os';
import { InvalidArgumentError, VgwrdmaError } from '@vgwrdma/errors';

// errno number → name, from the running platform's own table (Linux numbers on Linux). Where
// two names share a number (EAGAIN/EWOULDBLOCK, ENOTSUP/EOPNOTSUPP) the first listed wins.
const ERRNO_NAMES: ReadonlyMap<number, string> = new Map(
  Object.entries(constants.errno)
    .reverse()
    .map(([name, value]) => [value, name] as const),
);

/** The symbolic name of an errno (sign ignored), e.g. 5 or -5 → 'EIO'; 'E<n>' when unknown. */
export function errnoName(errno: number): string {
  const n = Math.abs(errno);
  return ERRNO_NAMES.get(n) ?? `E${n}`;
}

/** The negative errno for a name, e.g. 'ETIMEDOUT' → -110. Throws for an unknown name. */
export function errnoOf(name: string): number {
  const n = (constants.errno as Record<string, number>)[name];
  if (n === undefined) throw new InvalidArgumentError(`unknown errno name ${name}`);
  return -n;
}

/** A failed native operation. `errno` is negative, as the C ABI returns it. */
export class RdmaError extends VgwrdmaError<'VGW_ERR_RDMA_NATIVE'> {
  override readonly name = 'RdmaError';
  /** Negative errno, e.g. -5. */
  readonly errno: number;
  /** Its symbolic name, e.g. 'EIO': what callers branch on. */
  readonly errnoName: string;
  /** The operation that failed, e.g. 'handleGet'. */
  readonly op: string;
  /**
   * Why, in the native side's words when it said (vgw_shim_last_error, or the message of an
   * async completion), e.g. "softnic READ of 1048576 bytes at 0x7f…, agent 127.0.0.1:4100: the
   * agent is unreachable …"; undefined when nothing was recorded.
   */
  readonly detail: string | undefined;

  constructor(op: string, errno: number, detail?: string) {
    const neg = -Math.abs(errno);
    const name = errnoName(neg);
    super('VGW_ERR_RDMA_NATIVE', `${op} failed: ${name} (${neg})${detail ? `: ${detail}` : ''}`);
    this.errno = neg;
    this.errnoName = name;
    this.op = op;
    this.detail = detail === '' ? undefined : detail;
  }
}

/** Throws `RdmaError` when a native return value is a negative errno; returns it otherwise. */
export function checkErrno(op: string, ret: number | bigint, detail?: string): number {
  const n = Number(ret);
  if (n < 0) throw new RdmaError(op, n, detail);
  return n;
}
