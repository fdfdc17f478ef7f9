import { describe, expect, it } from 'vitest';
import { checkPolicy } from '../../src/post-object/check-policy.js';
import { parsePolicyDocument } from '../../src/post-object/policy-document.js';

const b64 = (doc: unknown) => Buffer.from(JSON.stringify(doc)).toString('base64');
const LATER = '2099-01-01T00:00:00Z';
const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return '';
  } catch (e) {
    return `${(e as { code: string }).code}: ${(e as Error).message}`;
  }
};

describe('parsePolicyDocument', () => {
  it('reads exact, prefix and range conditions, operators and field names in any case', () => {
    const doc = parsePolicyDocument(
      b64({
        expiration: '2099-01-01T00:00:00.000Z',
        conditions: [
          { bUcKeT: 'b' },
          ['StArTs-WiTh', '$KeY', 'foo'],
          ['EQ', '$acl', 'private'],
          ['content-length-range', 1, '10'],
        ],
      }),
    );
    expect(doc.fields.map((f) => [f.op, f.field, f.value])).toEqual([
      ['eq', 'bucket', 'b'],
      ['starts-with', 'key', 'foo'],
      ['eq', 'acl', 'private'],
    ]);
    expect(doc.length).toEqual({ min: 1, max: 10 });
  });

  it.each([
    ['not JSON', 'bm90IGpzb24=', 'Invalid Policy: Invalid JSON.'],
    [
      'upper-case EXPIRATION',
      b64({ EXPIRATION: LATER, conditions: [] }),
      'Invalid Policy: Policy missing expiration.',
    ],
    [
      'upper-case CONDITIONS',
      b64({ expiration: LATER, CONDITIONS: [] }),
      'Invalid Policy: Policy missing conditions.',
    ],
    [
      'a date not in ISO 8601',
      b64({ expiration: '2099-01-01 00:00:00+00:00', conditions: [] }),
      "Invalid Policy: Invalid 'expiration' value: '2099-01-01 00:00:00+00:00'",
    ],
    [
      'an empty condition',
      b64({ expiration: LATER, conditions: [{}] }),
      'Invalid Policy: Invalid Simple-Condition: Simple-Conditions must have exactly one property specified.',
    ],
    [
      'a range without maximum',
      b64({ expiration: LATER, conditions: [['content-length-range', 0]] }),
      `Invalid Policy: Invalid 'content-length-range' condition: ["content-length-range",0]`,
    ],
    [
      'a negative range',
      b64({ expiration: LATER, conditions: [['content-length-range', -1, 0]] }),
      `Invalid Policy: Invalid 'content-length-range' condition: ["content-length-range",-1,0]`,
    ],
    [
      'an unknown operator',
      b64({ expiration: LATER, conditions: [['ends-with', '$key', 'x']] }),
      'Invalid Policy: Invalid Condition: ["ends-with", "$key", "x"]',
    ],
  ])('refuses %s (InvalidPolicyDocument)', (_name, policy, message) => {
    expect(codeOf(() => parsePolicyDocument(policy))).toBe(`InvalidPolicyDocument: ${message}`);
  });
});

describe('checkPolicy', () => {
  const doc = parsePolicyDocument(
    b64({
      expiration: LATER,
      conditions: [
        { bucket: 'b' },
        ['starts-with', '$key', 'up/'],
        ['starts-with', '$Content-Type', 'image/'],
      ],
    }),
  );
  const fields = (extra: Record<string, string> = {}) =>
    new Map(Object.entries({ bucket: 'b', key: 'up/x', 'content-type': 'image/png', policy: 'p', ...extra }));
  const now = new Date('2030-01-01T00:00:00Z');

  it('passes a form that meets every condition; x-ignore-* and signature fields need none', () => {
    expect(codeOf(() => checkPolicy(doc, fields({ 'x-ignore-me': '1', 'x-amz-signature': 's' }), now))).toBe(
      '',
    );
  });

  it('checks each Content-Type of a list against the prefix', () => {
    expect(codeOf(() => checkPolicy(doc, fields({ 'content-type': 'image/png, image/gif' }), now))).toBe('');
    expect(codeOf(() => checkPolicy(doc, fields({ 'content-type': 'image/png, text/plain' }), now))).toMatch(
      /^AccessDenied: Invalid according to Policy: Policy Condition failed: \["starts-with", "\$Content-Type"/,
    );
  });

  it('refuses an expired policy, a failed condition, an uncovered field and a missing bucket condition', () => {
    expect(codeOf(() => checkPolicy(doc, fields(), new Date('2100-01-01T00:00:00Z')))).toBe(
      'AccessDenied: Invalid according to Policy: Policy expired.',
    );
    expect(codeOf(() => checkPolicy(doc, fields({ bucket: 'other' }), now))).toBe(
      'AccessDenied: Invalid according to Policy: Policy Condition failed: ["eq", "$bucket", "b"]',
    );
    expect(codeOf(() => checkPolicy(doc, fields({ 'x-amz-meta-a': '1' }), now))).toBe(
      'AccessDenied: Invalid according to Policy: Extra input fields: x-amz-meta-a',
    );
    const noBucket = parsePolicyDocument(
      b64({ expiration: LATER, conditions: [['starts-with', '$key', '']] }),
    );
    expect(
      codeOf(() =>
        checkPolicy(
          noBucket,
          new Map([
            ['key', 'k'],
            ['bucket', 'b'],
          ]),
          now,
        ),
      ),
    ).toBe('AccessDenied: Invalid according to Policy: Extra input fields: bucket');
  });
});
