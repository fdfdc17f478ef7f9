// The rules that make every upstream answer as AWS does (found against Ceph RGW 16.2; the
// conformance kit over RGW in apps/vgwrdma/test/backend-s3 shows them end to end).
import { S3Error } from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import {
  checkPartOrder,
  checkWriteLimits,
  localIfMatch,
  needsLocalIfMatch,
  partsCountOf,
  quotedETag,
  writeConditionETag,
} from '../src/upstream-quirks.js';

const ETAG = '"5d41402abc4b2a76b9719d911017c592"';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (err) {
    return err instanceof S3Error ? err.code : String(err);
  }
  return undefined;
}

describe('upstream quirks', () => {
  it('quotes a bare ETag, leaves quoted, weak and empty ones', () => {
    expect(quotedETag('abc')).toBe('"abc"');
    expect(quotedETag('"abc"')).toBe('"abc"');
    expect(quotedETag('W/"abc"')).toBe('W/"abc"');
    expect(quotedETag('')).toBe('');
    expect(quotedETag(undefined)).toBe('');
  });

  it('sends write conditions unquoted, * unchanged', () => {
    expect(writeConditionETag(ETAG)).toBe(ETAG.replace(/"/g, ''));
    expect(writeConditionETag('*')).toBe('*');
    expect(writeConditionETag('"a", "b"')).toBe('a, b');
    expect(writeConditionETag(undefined)).toBeUndefined();
  });

  it('evaluates a read If-Match of * or a list here, sending the ETag that matched', () => {
    expect(needsLocalIfMatch(ETAG)).toBe(false);
    expect(needsLocalIfMatch('*')).toBe(true);
    expect(needsLocalIfMatch(`"nope", ${ETAG}`)).toBe(true);
    const current = { etag: ETAG, lastModified: new Date() };
    expect(localIfMatch(`"nope", ${ETAG}`, { ifNoneMatch: '"x"' }, current)).toEqual({
      ifMatch: ETAG,
      ifNoneMatch: '"x"',
    });
    expect(localIfMatch('*', {}, current)).toEqual({ ifMatch: ETAG });
    expect(codeOf(() => localIfMatch('"nope", "other"', {}, current))).toBe('PreconditionFailed');
  });

  it('refuses parts out of ascending order', () => {
    expect(codeOf(() => checkPartOrder([{ partNumber: 1 }, { partNumber: 2 }]))).toBeUndefined();
    expect(codeOf(() => checkPartOrder([{ partNumber: 2 }, { partNumber: 1 }]))).toBe('InvalidPartOrder');
    expect(codeOf(() => checkPartOrder([{ partNumber: 1 }, { partNumber: 1 }]))).toBe('InvalidPartOrder');
  });

  it('refuses a key over 1024 bytes and metadata over 2 KiB', () => {
    expect(codeOf(() => checkWriteLimits('k'.repeat(1024), { a: 'v'.repeat(2047) }))).toBeUndefined();
    expect(codeOf(() => checkWriteLimits('é'.repeat(513), undefined))).toBe('KeyTooLongError');
    expect(codeOf(() => checkWriteLimits('k', { a: 'v'.repeat(2048) }))).toBe('MetadataTooLarge');
  });

  it('reads the parts count from a multipart ETag when the upstream sends none', () => {
    expect(partsCountOf(undefined, '"686ce36d083e1d331420bff015e9a69d-2"')).toBe(2);
    expect(partsCountOf(5, '"686ce36d083e1d331420bff015e9a69d-2"')).toBe(5);
    expect(partsCountOf(undefined, ETAG)).toBeUndefined();
  });
});
