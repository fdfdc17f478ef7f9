import { describe, expect, it } from 'vitest';
import { newRequestId } from '../../src/middleware/request-id.js';

describe('newRequestId', () => {
  it('gives 16 upper-case hex digits, as S3 does', () => {
    expect(newRequestId()).toMatch(/^[0-9A-F]{16}$/);
  });

  it('never repeats within a process', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => newRequestId()));
    expect(ids.size).toBe(10_000);
  });
});
