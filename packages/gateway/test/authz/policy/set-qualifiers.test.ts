// The ForAllValues / ForAnyValue set qualifiers on multi-valued condition keys (as
// s3:RequestObjectTagKeys is), and the operator names the parser accepts or refuses with them.
import { describe, expect, it } from 'vitest';
import { conditionHolds, splitOperator } from '../../../src/authz/policy/conditions.js';
import { parseBucketPolicy } from '../../../src/authz/policy/parse-policy.js';
import type { PolicyCondition } from '../../../src/authz/policy/types.js';

const KEY = 's3:requestobjecttagkeys';
const cond = (raw: string, values: string[]): PolicyCondition => {
  const op = splitOperator(raw);
  if (!op) throw new Error(`not an operator: ${raw}`);
  return { ...op, key: KEY, values };
};
const keys = (...k: string[]) => new Map([[KEY, k]]);
const none = new Map<string, string[]>();

describe('splitOperator with set qualifiers', () => {
  it.each([
    ['ForAllValues:StringEquals', { operator: 'StringEquals', ifExists: false, set: 'ForAllValues' }],
    ['ForAnyValue:StringLikeIfExists', { operator: 'StringLike', ifExists: true, set: 'ForAnyValue' }],
    ['StringEquals', { operator: 'StringEquals', ifExists: false }],
  ])('reads %s', (raw, want) => {
    expect(splitOperator(raw)).toEqual(want);
  });

  it.each(['ForSomeValues:StringEquals', 'ForAllValues:Null', 'ForAnyValue:', 'StringEquals:ForAllValues'])(
    'refuses %s',
    (raw) => {
      expect(splitOperator(raw)).toBeUndefined();
    },
  );

  it('makes the parser refuse an unknown qualifier as an invalid operator', () => {
    const policy = (op: string) =>
      JSON.stringify({
        Statement: [
          {
            Effect: 'Allow',
            Principal: '*',
            Action: 's3:PutObject',
            Resource: 'arn:aws:s3:::b/*',
            Condition: { [op]: { 's3:RequestObjectTagKeys': ['a'] } },
          },
        ],
      });
    expect(() => parseBucketPolicy(policy('ForAllValues:StringEquals'), 'b')).not.toThrow();
    expect(() => parseBucketPolicy(policy('ForEveryValue:StringEquals'), 'b')).toThrow(
      'Invalid Condition operator',
    );
  });
});

describe('conditionHolds with set qualifiers', () => {
  it('ForAllValues: every request value is listed; a missing key holds', () => {
    const c = cond('ForAllValues:StringEquals', ['project', 'team']);
    expect(conditionHolds(c, keys('project'))).toBe(true);
    expect(conditionHolds(c, keys('project', 'team'))).toBe(true);
    expect(conditionHolds(c, keys('project', 'cost'))).toBe(false);
    expect(conditionHolds(c, none)).toBe(true);
  });

  it('ForAnyValue: one request value is listed; a missing key does not hold unless IfExists', () => {
    const c = cond('ForAnyValue:StringEquals', ['project']);
    expect(conditionHolds(c, keys('team', 'project'))).toBe(true);
    expect(conditionHolds(c, keys('team'))).toBe(false);
    expect(conditionHolds(c, none)).toBe(false);
    expect(conditionHolds(cond('ForAnyValue:StringEqualsIfExists', ['project']), none)).toBe(true);
  });

  it('negated operators judge each value on its own', () => {
    const all = cond('ForAllValues:StringNotLike', ['secret*']);
    expect(conditionHolds(all, keys('team', 'cost'))).toBe(true);
    expect(conditionHolds(all, keys('team', 'secret-x'))).toBe(false);
    const any = cond('ForAnyValue:StringNotEquals', ['team']);
    expect(conditionHolds(any, keys('team', 'cost'))).toBe(true);
    expect(conditionHolds(any, keys('team'))).toBe(false);
  });
});
