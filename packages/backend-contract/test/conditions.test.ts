// checkConditions: conditional request evaluation in RFC 9110 §13.2.2 order, as S3 answers it
// (If-Match before If-Unmodified-Since, If-None-Match before If-Modified-Since; 304 only for reads).
import { describe, expect, it } from 'vitest';
import { checkConditions, normalizeETag } from '../src/conditions.js';
import type { Conditions } from '../src/types/common.js';

const target = { etag: '"abc123"', lastModified: new Date('2026-01-02T03:04:05.678Z') };
const before = new Date('2026-01-01T00:00:00Z');
const after = new Date('2026-02-01T00:00:00Z');
// Same second as lastModified, earlier milliseconds: S3 compares whole seconds.
const sameSecond = new Date('2026-01-02T03:04:05.000Z');

function outcome(c: Conditions | undefined, forRead = true): string {
  try {
    checkConditions(c, target, forRead);
    return 'ok';
  } catch (err) {
    return (err as { code: string }).code;
  }
}

describe('normalizeETag', () => {
  it('strips quotes and the weak prefix', () => {
    expect(normalizeETag('"abc"')).toBe('abc');
    expect(normalizeETag('abc')).toBe('abc');
    expect(normalizeETag('W/"abc"')).toBe('abc');
    expect(normalizeETag('  "abc"  ')).toBe('abc');
  });
});

describe('checkConditions', () => {
  it('passes with no conditions', () => {
    expect(outcome(undefined)).toBe('ok');
    expect(outcome({})).toBe('ok');
  });

  it.each<[string, Conditions, string]>([
    ['If-Match equal', { ifMatch: '"abc123"' }, 'ok'],
    ['If-Match unquoted', { ifMatch: 'abc123' }, 'ok'],
    ['If-Match *', { ifMatch: '*' }, 'ok'],
    ['If-Match list containing it', { ifMatch: '"x", "abc123"' }, 'ok'],
    ['If-Match other', { ifMatch: '"x"' }, 'PreconditionFailed'],
    ['If-None-Match equal', { ifNoneMatch: '"abc123"' }, 'NotModified'],
    ['If-None-Match *', { ifNoneMatch: '*' }, 'NotModified'],
    ['If-None-Match other', { ifNoneMatch: '"x"' }, 'ok'],
    ['If-Modified-Since before', { ifModifiedSince: before }, 'ok'],
    ['If-Modified-Since after', { ifModifiedSince: after }, 'NotModified'],
    ['If-Modified-Since same second', { ifModifiedSince: sameSecond }, 'NotModified'],
    ['If-Unmodified-Since after', { ifUnmodifiedSince: after }, 'ok'],
    ['If-Unmodified-Since same second', { ifUnmodifiedSince: sameSecond }, 'ok'],
    ['If-Unmodified-Since before', { ifUnmodifiedSince: before }, 'PreconditionFailed'],
  ])('read: %s → %s', (_name, c, want) => {
    expect(outcome(c)).toBe(want);
  });

  it('If-Match true overrides a failing If-Unmodified-Since', () => {
    expect(outcome({ ifMatch: '"abc123"', ifUnmodifiedSince: before })).toBe('ok');
  });

  it('If-None-Match false (no match) overrides a failing If-Modified-Since', () => {
    expect(outcome({ ifNoneMatch: '"x"', ifModifiedSince: after })).toBe('ok');
  });

  it('If-None-Match matching wins over a passing If-Modified-Since', () => {
    expect(outcome({ ifNoneMatch: '"abc123"', ifModifiedSince: before })).toBe('NotModified');
  });

  it('a failing If-Match answers 412 before a matching If-None-Match could answer 304', () => {
    expect(outcome({ ifMatch: '"x"', ifNoneMatch: '"abc123"' })).toBe('PreconditionFailed');
  });

  it('If-Match true and If-None-Match matching answers 304 on a read', () => {
    expect(outcome({ ifMatch: '"abc123"', ifNoneMatch: '"abc123"' })).toBe('NotModified');
  });

  it('for writes and copies every failure is 412, never 304', () => {
    expect(outcome({ ifNoneMatch: '"abc123"' }, false)).toBe('PreconditionFailed');
    expect(outcome({ ifNoneMatch: '*' }, false)).toBe('PreconditionFailed');
    expect(outcome({ ifModifiedSince: after }, false)).toBe('PreconditionFailed');
    expect(outcome({ ifMatch: '"abc123"' }, false)).toBe('ok');
  });
});
