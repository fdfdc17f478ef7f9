import { describe, expect, it } from 'vitest';
import { mailSafeHeaderValue } from '../../src/http/mail-safe.js';

const word = (text: string) => `=?UTF-8?B?${Buffer.from(text, 'utf8').toString('base64')}?=`;

describe('mailSafeHeaderValue', () => {
  it('leaves printable ASCII alone, empty and tab included', () => {
    for (const v of ['plain value', '', 'a\tb', '=?UTF-8?B?w6k=?=']) expect(mailSafeHeaderValue(v)).toBe(v);
  });

  it('reads wire bytes that are valid UTF-8 as UTF-8 and others as latin1', () => {
    // 'Ã©' is how Node hands over the bytes C3 A9 (é in UTF-8); 'é' alone is the byte E9.
    expect(mailSafeHeaderValue('caf\u00c3\u00a9')).toBe(word('café'));
    expect(mailSafeHeaderValue('caf\u00e9')).toBe(word('café'));
  });

  it('encodes text that never was wire bytes as it is', () => {
    expect(mailSafeHeaderValue('日本')).toBe(word('日本'));
  });
});
