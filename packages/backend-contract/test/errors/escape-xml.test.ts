import { describe, expect, it } from 'vitest';
import { escapeXml } from '../../src/errors/escape-xml.js';

describe('escapeXml', () => {
  it('escapes markup and quote characters', () => {
    expect(escapeXml(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
  });
  it('keeps carriage returns as character references and replaces characters XML cannot hold', () => {
    expect(escapeXml('a\rb\u0001c')).toBe('a&#13;b\uFFFDc');
  });
  it('leaves tabs, newlines and non-ASCII text alone', () => {
    expect(escapeXml('a\tb\nc é 日本')).toBe('a\tb\nc é 日本');
  });
});
