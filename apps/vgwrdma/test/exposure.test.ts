// When the startup warning fires: beyond loopback (any bound address outside 127/8 and ::1) with
// a published secret or one shorter than MIN_SECRET_LENGTH.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CREDENTIALS } from '../src/defaults.js';
import { exposureWarning, isLoopbackAddress, MIN_SECRET_LENGTH } from '../src/exposure.js';

const strong = 'x'.repeat(MIN_SECRET_LENGTH);

describe('isLoopbackAddress', () => {
  it('knows loopback from the rest', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', 'localhost'])
      expect(isLoopbackAddress(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.0.2.2', '::ffff:10.0.0.1', 'fe80::1', '128.0.0.1'])
      expect(isLoopbackAddress(host), host).toBe(false);
  });
});

describe('exposureWarning', () => {
  it('warns beyond loopback with the default, an AWS example or a short secret', () => {
    expect(exposureWarning('0.0.0.0', DEFAULT_CREDENTIALS.secret)).toMatch(/published default secret/);
    expect(exposureWarning('::', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')).toMatch(/published/);
    expect(exposureWarning('10.1.2.3', strong.slice(1))).toMatch(/shorter than 16 characters/);
  });

  it('is silent on loopback, or with a strong secret', () => {
    expect(exposureWarning('127.0.0.1', DEFAULT_CREDENTIALS.secret)).toBeUndefined();
    expect(exposureWarning('::1', 'short')).toBeUndefined();
    expect(exposureWarning('0.0.0.0', strong)).toBeUndefined();
  });
});
