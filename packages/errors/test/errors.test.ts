import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  InvalidArgumentError,
  InvalidStateError,
  isVgwrdmaError,
  VGW_ERROR_CODES,
  VgwrdmaError,
} from '../src/errors.js';

const ALL = Object.values(VGW_ERROR_CODES).flat();

/** `| code | class | ...` rows of docs/errors.md, as [code, class]. */
function documentedRows(): [string, string][] {
  const text = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
  const rows: [string, string][] = [];
  for (const m of text.matchAll(/^\|\s*`(VGW_ERR_[A-Z0-9_]+)`\s*\|\s*`(\w+)`\s*\|/gm)) {
    rows.push([m[1] as string, m[2] as string]);
  }
  return rows;
}

describe('the VGW_ERR_* table', () => {
  it('has unique codes, all VGW_ERR_ and upper snake case', () => {
    expect(new Set(ALL).size).toBe(ALL.length);
    for (const code of ALL) expect(code).toMatch(/^VGW_ERR_[A-Z0-9]+(_[A-Z0-9]+)*$/);
  });

  it('docs/errors.md lists every code once, under the class that raises it, and nothing else', () => {
    const rows = documentedRows();
    const expected = Object.entries(VGW_ERROR_CODES).flatMap(([cls, codes]) =>
      codes.map((code) => [code, cls] as [string, string]),
    );
    expect([...rows].sort()).toEqual([...expected].sort());
  });
});

describe('VgwrdmaError', () => {
  it('carries its code and cause; isVgwrdmaError checks class and code', () => {
    const cause = new Error('inner');
    const e = new VgwrdmaError('VGW_ERR_POOL_CLOSED', 'pool is closed', { cause });
    expect(e).toBeInstanceOf(Error);
    expect([e.code, e.message, e.cause, e.name]).toEqual([
      'VGW_ERR_POOL_CLOSED',
      'pool is closed',
      cause,
      'VgwrdmaError',
    ]);
    expect(isVgwrdmaError(e)).toBe(true);
    expect(isVgwrdmaError(e, 'VGW_ERR_POOL_CLOSED')).toBe(true);
    expect(isVgwrdmaError(e, 'VGW_ERR_POOL_TIMEOUT')).toBe(false);
    expect(isVgwrdmaError(Object.assign(new Error('x'), { code: 'VGW_ERR_POOL_CLOSED' }))).toBe(false);
  });

  it('subclasses keep instanceof and their own name', () => {
    class PoolError extends VgwrdmaError<'VGW_ERR_POOL_TIMEOUT'> {
      override readonly name = 'PoolError';
    }
    const e = new PoolError('VGW_ERR_POOL_TIMEOUT', 'why');
    expect(e).toBeInstanceOf(VgwrdmaError);
    expect(isVgwrdmaError(e, 'VGW_ERR_POOL_TIMEOUT')).toBe(true);
    expect(e.name).toBe('PoolError');
  });

  it('the shared misuse classes carry their code, name and cause', () => {
    const cause = new Error('inner');
    const arg = new InvalidArgumentError('size must be ≥ 1, got 0', { cause });
    const state = new InvalidStateError('buffer lease used after release()');
    expect([arg.code, arg.name, arg.cause, arg instanceof VgwrdmaError]).toEqual([
      'VGW_ERR_INVALID_ARGUMENT',
      'InvalidArgumentError',
      cause,
      true,
    ]);
    expect([state.code, state.name, isVgwrdmaError(state, 'VGW_ERR_INVALID_STATE')]).toEqual([
      'VGW_ERR_INVALID_STATE',
      'InvalidStateError',
      true,
    ]);
  });
});
