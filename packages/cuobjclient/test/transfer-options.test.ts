// TransferManager's defaults and option checks: parts in flight follow the host's cores (one per
// core, 4 to 8, as measured), an explicit concurrency wins, and an out-of-range or malformed one
// is refused with a CuObjError naming the option.
import { availableParallelism } from 'node:os';
import type { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { CuObjError } from '../src/errors.js';
import {
  DEFAULT_CONCURRENCY,
  DEFAULT_PART_SIZE,
  defaultConcurrency,
  resolveOptions,
} from '../src/transfer-options.js';

const client = {} as S3Client;

describe('defaultConcurrency', () => {
  it('is one per core, at least 4 and at most 8', () => {
    expect([1, 2, 4, 5, 7, 8, 16, 256].map((n) => defaultConcurrency(n))).toEqual([4, 4, 4, 5, 7, 8, 8, 8]);
  });

  it("is this host's value, and what a manager without `concurrency` uses", () => {
    expect(DEFAULT_CONCURRENCY).toBe(defaultConcurrency(availableParallelism()));
    const o = resolveOptions({ client });
    expect(o.concurrency).toBe(DEFAULT_CONCURRENCY);
    expect(o.partSize).toBe(DEFAULT_PART_SIZE);
    expect(o.multipartThreshold).toBe(DEFAULT_PART_SIZE);
  });

  it('an explicit concurrency wins; one out of range is refused by name', () => {
    expect(resolveOptions({ client, concurrency: 3 }).concurrency).toBe(3);
    for (const bad of [0, 65, 2.5, Number.NaN]) {
      const resolve = () => resolveOptions({ client, concurrency: bad });
      expect(resolve).toThrow(CuObjError);
      expect(resolve).toThrow(/concurrency/);
    }
  });
});
