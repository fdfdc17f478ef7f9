// The web console's CORS rule: its exact origins only (a '*' or '?' in a configured origin is not
// a wildcard), every S3 verb and PATCH, placed before the bucket's own rules.
import { describe, expect, it } from 'vitest';
import { consoleCorsRule, isConsoleOrigin, withConsoleRule } from '../../src/cors/console-rule.js';
import { matchCorsRule } from '../../src/cors/cors-match.js';

const rule = consoleCorsRule(['http://127.0.0.1:7071', 'https://console.example.com']);

describe('consoleCorsRule', () => {
  it("matches the console's origins only", () => {
    expect(isConsoleOrigin(rule, 'http://127.0.0.1:7071')).toBe(true);
    expect(isConsoleOrigin(rule, 'https://console.example.com')).toBe(true);
    expect(isConsoleOrigin(rule, 'http://127.0.0.1:7072')).toBe(false);
    expect(isConsoleOrigin(rule, 'https://console.example.com.evil.test')).toBe(false);
    expect(isConsoleOrigin(rule, undefined)).toBe(false);
    expect(isConsoleOrigin(undefined, 'http://127.0.0.1:7071')).toBe(false);
  });

  it('takes no wildcard from a configured origin', () => {
    const odd = consoleCorsRule(['https://*.example.com']);
    expect(isConsoleOrigin(odd, 'https://evil.example.com')).toBe(false);
  });

  it('allows PATCH (the admin API) and any header, and comes before the bucket rules', () => {
    expect(
      matchCorsRule([rule], { origin: 'http://127.0.0.1:7071', method: 'PATCH', headers: ['authorization'] }),
    ).toBe(rule);
    const bucket = { allowedOrigins: ['*'], allowedMethods: ['GET'], allowedHeaders: [], exposeHeaders: [] };
    expect(withConsoleRule([bucket], rule)).toEqual([rule, bucket]);
    expect(withConsoleRule([bucket], undefined)).toEqual([bucket]);
  });
});
