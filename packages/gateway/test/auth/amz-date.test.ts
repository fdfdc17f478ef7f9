import { describe, expect, it } from 'vitest';
import { formatAmzDate, parseAmzDate } from '../../src/auth/amz-date.js';

describe('parseAmzDate', () => {
  it('reads the ISO 8601 basic form and round-trips it', () => {
    const d = parseAmzDate('20261129T133607Z');
    expect(d?.toISOString()).toBe('2026-11-29T13:36:07.000Z');
    expect(formatAmzDate(d as Date)).toBe('20261129T133607Z');
    expect(parseAmzDate('20240229T235959Z')?.toISOString()).toBe('2024-02-29T23:59:59.000Z');
  });

  it('refuses impossible dates instead of rolling them over', () => {
    for (const bad of [
      '20230229T000000Z', // not a leap year
      '20261130T240000Z',
      '20261131T000000Z',
      '20261301T000000Z',
      '20261100T000000Z',
      '20261129T126000Z',
      '20261129T120060Z',
      '00500101T000000Z', // a two-digit year would become 1950
      '20261129T133607',
      '2026-11-29T13:36:07Z',
    ]) {
      expect(parseAmzDate(bad), bad).toBeUndefined();
    }
  });
});
