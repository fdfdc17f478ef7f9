import { describe, expect, it } from 'vitest';
import { el, xmlDocument } from './document.js';
import { escapeXml } from './escape.js';

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

describe('document helpers', () => {
  it('omits undefined elements and writes dates with milliseconds', () => {
    expect(el('A', undefined)).toBe('');
    expect(el('D', new Date(Date.UTC(2026, 0, 1)))).toBe('<D>2026-01-01T00:00:00.000Z</D>');
    expect(xmlDocument('R', el('K', 'x&y'))).toContain(
      '<R xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><K>x&amp;y</K></R>',
    );
  });
});
