// Property tests of every XML request-body reader: valid documents, the same documents damaged
// character by character, random text, and hostile shapes (entity expansion, deep nesting,
// prototype names) either parse to a typed value or throw an S3Error with a 4xx status — never
// another exception, never a value polluted through __proto__. Runs: FUZZ_RUNS (CI 200,
// stress 10^6).
import { isS3Error } from '@vgwrdma/backend-contract';
import { fuzzSettings } from '@vgwrdma/fuzz-kit';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseXmlRoot } from '../../src/xml/parse.js';
import {
  parseAccessControlPolicy,
  parseCompleteMultipartUpload,
  parseCreateBucketConfiguration,
  parseDelete,
  parseLegalHold,
  parseObjectLockConfiguration,
  parseOwnershipControls,
  parseRetention,
  parseTagging,
  parseVersioningConfiguration,
} from '../../src/xml/requests.js';

const { timeout: TIMEOUT, params: FUZZ } = fuzzSettings(200);

/** Reader name → reader and a generator of valid documents for it. */
const text = fc.string({ unit: fc.constantFrom(...'ab09 -_/.é&<>"\''), maxLength: 12 }).map(xmlEscape);
function xmlEscape(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
const el = (name: string, body: string) => `<${name}>${body}</${name}>`;
const READERS: Record<string, { read: (xml: string) => unknown; valid: fc.Arbitrary<string> }> = {
  complete: {
    read: parseCompleteMultipartUpload,
    valid: fc
      .array(
        fc.tuple(
          fc.integer({ min: 1, max: 10000 }),
          fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 }),
        ),
        {
          minLength: 1,
          maxLength: 4,
        },
      )
      .map((ps) =>
        el(
          'CompleteMultipartUpload',
          ps.map(([n, e]) => el('Part', el('PartNumber', String(n)) + el('ETag', `"${e}"`))).join(''),
        ),
      ),
  },
  delete: {
    read: parseDelete,
    valid: fc
      .tuple(fc.array(text, { minLength: 1, maxLength: 4 }), fc.constantFrom('', el('Quiet', 'true')))
      .map(([keys, quiet]) => el('Delete', quiet + keys.map((k) => el('Object', el('Key', k))).join(''))),
  },
  tagging: {
    read: (x) => parseTagging(x, 10),
    valid: fc
      .array(fc.tuple(text, text), { maxLength: 11 })
      .map((ts) =>
        el('Tagging', el('TagSet', ts.map(([k, v]) => el('Tag', el('Key', k) + el('Value', v))).join(''))),
      ),
  },
  createBucket: {
    read: parseCreateBucketConfiguration,
    valid: text.map((t) => el('CreateBucketConfiguration', el('LocationConstraint', t))),
  },
  versioning: {
    read: parseVersioningConfiguration,
    valid: fc
      .constantFrom('Enabled', 'Suspended', 'Off')
      .map((s) => el('VersioningConfiguration', el('Status', s))),
  },
  ownership: {
    read: parseOwnershipControls,
    valid: fc
      .constantFrom('BucketOwnerEnforced', 'ObjectWriter', 'x')
      .map((o) => el('OwnershipControls', el('Rule', el('ObjectOwnership', o)))),
  },
  lock: {
    read: parseObjectLockConfiguration,
    valid: fc
      .tuple(fc.constantFrom('GOVERNANCE', 'COMPLIANCE'), fc.integer({ min: -1, max: 400 }))
      .map(([m, d]) =>
        el(
          'ObjectLockConfiguration',
          el('ObjectLockEnabled', 'Enabled') +
            el('Rule', el('DefaultRetention', el('Mode', m) + el('Days', String(d)))),
        ),
      ),
  },
  retention: {
    read: parseRetention,
    valid: fc
      .tuple(fc.constantFrom('GOVERNANCE', 'COMPLIANCE'), fc.date({ noInvalidDate: true }))
      .map(([m, d]) => el('Retention', el('Mode', m) + el('RetainUntilDate', d.toISOString()))),
  },
  legalHold: {
    read: parseLegalHold,
    valid: fc.constantFrom('ON', 'OFF', 'on').map((s) => el('LegalHold', el('Status', s))),
  },
  acl: {
    read: parseAccessControlPolicy,
    valid: fc
      .tuple(text, fc.constantFrom('READ', 'WRITE', 'FULL_CONTROL'))
      .map(([id, p]) =>
        el(
          'AccessControlPolicy',
          el('Owner', el('ID', id)) +
            el('AccessControlList', el('Grant', el('Grantee', el('ID', id)) + el('Permission', p))),
        ),
      ),
  },
  cors: {
    read: (x) => parseXmlRoot(x, 'CORSConfiguration'),
    valid: fc.constant(el('CORSConfiguration', el('CORSRule', el('AllowedMethod', 'GET')))),
  },
};
const NAMES = Object.keys(READERS);

type Edit = { at: number; kind: 'replace' | 'insert' | 'delete' | 'truncate' | 'wrap' | 'drop'; s: string };
const editArb: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  kind: fc.constantFrom('replace', 'insert', 'delete', 'truncate', 'wrap', 'drop', 'drop'),
  s: fc.constantFrom(
    '<',
    '>',
    '/',
    '&',
    '&amp;',
    '&#0;',
    '&#xD800;',
    '&lt;',
    ']]>',
    '<![CDATA[',
    '<!--',
    '"',
    '=',
    ' ',
    'Part',
    '__proto__',
    '<__proto__>x</__proto__>',
    '<constructor>',
    '\u0000',
    'é',
  ),
});
function edit(doc: string, e: Edit): string {
  if (e.kind === 'drop') {
    // remove one whole element (a required child goes missing)
    const opens = [...doc.matchAll(/<([A-Za-z]+)>/g)];
    const m = opens[e.at % Math.max(opens.length, 1)];
    if (!m) return doc;
    const close = doc.indexOf(`</${m[1]}>`, m.index);
    return close < 0 ? doc : doc.slice(0, m.index) + doc.slice(close + (m[1] as string).length + 3);
  }
  const at = e.at % (doc.length + 1);
  if (e.kind === 'replace') return doc.slice(0, at) + e.s + doc.slice(at + 1);
  if (e.kind === 'insert') return doc.slice(0, at) + e.s + doc.slice(at);
  if (e.kind === 'delete') return doc.slice(0, at) + doc.slice(at + e.s.length);
  if (e.kind === 'truncate') return doc.slice(0, at);
  return `<?xml version="1.0"?>${doc}`;
}

// Hostile shapes, parameterised by size.
const hostileArb = fc.oneof(
  fc
    .integer({ min: 1, max: 12 })
    .map(
      (n) =>
        `<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "${'x'.repeat(50)}">${Array.from({ length: n }, (_, i) => `<!ENTITY e${i + 1} "${`&${i === 0 ? 'a' : `e${i}`};`.repeat(10)}">`).join('')}]><Delete><Object><Key>&e${n};</Key></Object></Delete>`,
    ),
  fc
    .integer({ min: 1, max: 3000 })
    .map((n) => `<Delete>${'<Object>'.repeat(n)}<Key>k</Key>${'</Object>'.repeat(n)}</Delete>`),
  fc
    .constantFrom('__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString')
    .map(
      (p) =>
        `<Tagging><TagSet><Tag><Key>${p}</Key><Value>v</Value></Tag><${p}><Key>x</Key></${p}></TagSet></Tagging>`,
    ),
);

/** A parsed value holds no undefined or NaN anywhere: every field a reader returns was checked. */
function wellFormed(v: unknown, path = 'value'): void {
  if (v === undefined || Number.isNaN(v)) throw new Error(`${path} is ${String(v)}`);
  if (typeof v !== 'object' || v === null) return;
  for (const [k, x] of Object.entries(v)) wellFormed(x, `${path}.${k}`);
}

function check(name: string, xml: string): string {
  const reader = READERS[name];
  if (!reader) throw new Error(name);
  try {
    wellFormed(reader.read(xml));
    return 'ok';
  } catch (err) {
    if (!isS3Error(err) || err.status < 400 || err.status > 499) throw err;
    return err.code;
  }
}

describe('XML request bodies (property)', () => {
  it('valid and nearly valid documents: a typed value or a 4xx S3Error', { timeout: TIMEOUT }, () => {
    const verdicts = new Map<string, number>();
    const docArb = fc
      .constantFrom(...NAMES)
      .chain((name) =>
        fc.tuple(
          fc.constant(name),
          (READERS[name] as { valid: fc.Arbitrary<string> }).valid,
          fc.array(editArb, { maxLength: 3 }),
        ),
      );
    fc.assert(
      fc.property(docArb, ([name, doc, edits]) => {
        const v = check(name, edits.reduce(edit, doc));
        verdicts.set(v, (verdicts.get(v) ?? 0) + 1);
      }),
      { ...FUZZ },
    );
    expect(verdicts.get('ok') ?? 0).toBeGreaterThan(0);
    expect(verdicts.get('MalformedXML') ?? 0).toBeGreaterThan(0);
  });

  it('random text and hostile shapes: a 4xx S3Error or a value, nothing polluted', {
    timeout: TIMEOUT,
  }, () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...NAMES),
        fc.oneof(fc.string({ maxLength: 300 }), hostileArb),
        (name, xml) => {
          check(name, xml);
          expect(({} as Record<string, unknown>).x).toBeUndefined();
          expect(Object.prototype).not.toHaveProperty('Key');
        },
      ),
      { ...FUZZ },
    );
  });

  it('entity expansion stays bounded (no billion laughs): refused or small', { timeout: 20_000 }, () => {
    const levels = Array.from(
      { length: 12 },
      (_, i) => `<!ENTITY e${i + 1} "${`&${i === 0 ? 'a' : `e${i}`};`.repeat(10)}">`,
    );
    const bomb = `<!DOCTYPE d [<!ENTITY a "${'x'.repeat(50)}">${levels.join('')}]><Delete><Object><Key>&e12;</Key></Object></Delete>`;
    try {
      const parsed = parseDelete(bomb); // 50 × 10^12 characters if expanded
      expect(parsed.objects[0]?.key.length ?? 0).toBeLessThan(1 << 20);
    } catch (err) {
      expect(isS3Error(err) && err.status).toBe(400);
    }
  });
});
