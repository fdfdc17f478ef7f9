import { describe, expect, it } from 'vitest';
import { el, xmlDocument } from '../../src/xml/document.js';

describe('document helpers', () => {
  it('omits undefined elements and writes dates with milliseconds', () => {
    expect(el('A', undefined)).toBe('');
    expect(el('D', new Date(Date.UTC(2026, 0, 1)))).toBe('<D>2026-01-01T00:00:00.000Z</D>');
    expect(xmlDocument('R', el('K', 'x&y'))).toContain(
      '<R xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><K>x&amp;y</K></R>',
    );
  });
  it('escapes element text with the one escape of backend-contract', () => {
    expect(el('K', `a<b>&"c'`)).toBe('<K>a&lt;b&gt;&amp;&quot;c&apos;</K>');
  });
});
