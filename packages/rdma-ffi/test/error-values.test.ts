import { InvalidArgumentError, isVgwrdmaError, VgwrdmaError } from '@vgwrdma/errors';
import { NativeLoadError } from '@vgwrdma/native';
import { describe, expect, it } from 'vitest';
import { checkErrno, errnoName, errnoOf, RdmaError } from '../src/errors.js';

describe('RdmaError', () => {
  it('names Linux errnos from the platform table, whatever the sign', () => {
    expect(errnoName(-5)).toBe('EIO');
    expect(errnoName(110)).toBe('ETIMEDOUT');
    expect(errnoName(-71)).toBe('EPROTO');
    expect(errnoName(-16)).toBe('EBUSY');
    expect(errnoName(-19)).toBe('ENODEV');
    expect(errnoName(-99999)).toBe('E99999');
    expect(errnoName(-11)).toBe('EAGAIN');
    expect(errnoName(-95)).toBe('ENOTSUP');
    expect(errnoOf('ENOMEM')).toBe(-12);
    expect(() => errnoOf('ENOPE')).toThrow(InvalidArgumentError);
  });

  it('keeps the negative errno, its name and the operation', () => {
    const e = new RdmaError('handlePut', 5, 'agent closed');
    expect(e).toBeInstanceOf(VgwrdmaError);
    expect(e).toMatchObject({
      code: 'VGW_ERR_RDMA_NATIVE',
      errno: -5,
      errnoName: 'EIO',
      op: 'handlePut',
      name: 'RdmaError',
    });
    expect(e.message).toBe('handlePut failed: EIO (-5): agent closed');
  });

  it('checkErrno passes non-negative values through and throws on negatives', () => {
    expect(checkErrno('x', 42)).toBe(42);
    expect(checkErrno('x', 7n)).toBe(7);
    expect(() => checkErrno('x', -110)).toThrow(
      expect.objectContaining({ errnoName: 'ETIMEDOUT', errno: -110 }),
    );
  });
});

describe('NativeLoadError', () => {
  it('is one of the VgwrdmaError family, with its code and cause', () => {
    const cause = new Error('dlopen: no such file');
    const e = new NativeLoadError('VGW_ERR_NATIVE_LOAD_FAILED', 'cannot load libvgwrdma_shims.so', { cause });
    expect(e).toBeInstanceOf(VgwrdmaError);
    expect(isVgwrdmaError(e, 'VGW_ERR_NATIVE_LOAD_FAILED')).toBe(true);
    expect(e).toMatchObject({ name: 'NativeLoadError', code: 'VGW_ERR_NATIVE_LOAD_FAILED', cause });
  });
});
