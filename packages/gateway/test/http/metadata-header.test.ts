import { describe, expect, it } from 'vitest';
import { metadataHeaderValue } from '../../src/http/metadata-header.js';

const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('metadataHeaderValue', () => {
  it('leaves printable ASCII alone, empty and tab included', () => {
    for (const v of ['plain value', '', 'a\tb', '=?UTF-8?B?w6k=?=']) expect(metadataHeaderValue(v)).toBe(v);
  });

  it('answers UTF-8 wire bytes as ISO-8859-1 text where it fits, so é reads back as é', () => {
    // 'Ã©' is how Node hands over the bytes C3 A9 (é in UTF-8); 'é' alone is the byte E9.
    expect(metadataHeaderValue('caf\u00c3\u00a9')).toBe('café');
    expect(metadataHeaderValue('caf\u00e9')).toBe('café');
  });

  it('answers text beyond ISO-8859-1 as its raw UTF-8 bytes', () => {
    expect(metadataHeaderValue(latin1('日本'))).toBe(latin1('日本'));
    expect(metadataHeaderValue('日本')).toBe(latin1('日本'));
  });

  it('encodes a value with a control character as an RFC 2047 word', () => {
    expect(metadataHeaderValue('a\nb')).toBe(`=?UTF-8?B?${Buffer.from('a\nb').toString('base64')}?=`);
  });
});
