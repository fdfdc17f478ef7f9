// Which transport errors are declines ("unreachable": nothing moved, the client may use HTTP) and
// which are failures after acceptance.
import { RdmaError } from '@vgwrdma/rdma-ffi';
import { describe, expect, it } from 'vitest';
import { isUnreachable } from '../src/transport.js';

const err = (errno: number) => new RdmaError('transfer', errno);
const ENODEV = 19;
const EIO = 5;
const ETIMEDOUT = 110;

describe('isUnreachable', () => {
  it('refused / no route is unreachable', () => {
    expect(isUnreachable(err(ENODEV), 0)).toBe(true);
  });
  it('a timeout before any byte moved (an unanswered connect) is unreachable', () => {
    expect(isUnreachable(err(ETIMEDOUT), 0)).toBe(true);
  });
  it('a timeout after bytes moved is a failure', () => {
    expect(isUnreachable(err(ETIMEDOUT), 8 << 20)).toBe(false);
  });
  it('I/O errors and non-transport errors are failures', () => {
    expect(isUnreachable(err(EIO), 0)).toBe(false);
    expect(isUnreachable(new Error('ETIMEDOUT'), 0)).toBe(false);
  });
});
