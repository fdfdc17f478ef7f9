import { describe, expect, it } from 'vitest';
import { metadataHeaderValue } from '../../src/http/metadata-header.js';

describe('metadataHeaderValue', () => {
  it('leaves printable ASCII alone, empty and tab included', () => {
    for (const v of ['plain value', '', 'a\tb', '=?UTF-8?B?w6k=?=']) expect(metadataHeaderValue(v)).toBe(v);
  });

  it('answers wire bytes as they came, UTF-8 or latin1', () => {
    // 'Ã©' is how Node hands over the bytes C3 A9 (é in UTF-8); 'é' alone is the byte E9.
    expect(metadataHeaderValue('caf\u00c3\u00a9')).toBe('caf\u00c3\u00a9');
    expect(metadataHeaderValue('caf\u00e9')).toBe('caf\u00e9');
  });

  it('sends text that never was wire bytes as its UTF-8 bytes', () => {
    expect(metadataHeaderValue('日本')).toBe(Buffer.from('日本', 'utf8').toString('latin1'));
  });

  it('encodes a value with a control character as an RFC 2047 word', () => {
    expect(metadataHeaderValue('a\nb')).toBe(`=?UTF-8?B?${Buffer.from('a\nb').toString('base64')}?=`);
  });
});
