// The policy engine on its own: validation messages, Deny over Allow, principal forms, action
// and resource wildcards, and the condition operators (including IfExists and negations).
import { describe, expect, it } from 'vitest';
import { conditionContext } from '../../../src/authz/condition-context.js';
import {
  evaluatePolicy,
  ipInCidr,
  parseBucketPolicy,
  policyIsPublic,
} from '../../../src/authz/policy/index.js';

const doc = (Statement: object[]) => JSON.stringify({ Version: '2012-10-17', Statement });
const ctx = (entries: Record<string, string>) => new Map(Object.entries(entries).map(([k, v]) => [k, [v]]));
const req = (principal: string, action: string, resource: string, context = new Map<string, string[]>()) => ({
  principal,
  action,
  resource,
  context,
});

describe('parseBucketPolicy', () => {
  it.each([
    ['[]', "Policies must be valid JSON and the first byte must be '{'"],
    ['{"Version":"2012-10-17"}', 'Missing required field Statement'],
    [
      doc([{ Principal: '*', Action: 's3:*', Resource: 'arn:aws:s3:::b/*' }]),
      'Missing required field Effect',
    ],
    [
      doc([{ Effect: 'Allow', Action: 's3:*', Resource: 'arn:aws:s3:::b/*' }]),
      'Missing required field Principal',
    ],
    [
      doc([{ Effect: 'Allow', Principal: '*', Action: 'iam:Pass', Resource: 'arn:aws:s3:::b/*' }]),
      'Policy has invalid action',
    ],
    [
      doc([{ Effect: 'Allow', Principal: '*', Action: 's3:*', Resource: 'arn:aws:s3:::c/*' }]),
      'Policy has invalid resource',
    ],
    [
      doc([
        {
          Effect: 'Allow',
          Principal: '*',
          Action: 's3:*',
          Resource: 'arn:aws:s3:::b',
          Condition: { Bogus: { a: 'b' } },
        },
      ]),
      'Invalid Condition operator',
    ],
  ])('refuses %s', (text, message) => {
    expect(() => parseBucketPolicy(text, 'b')).toThrow(
      expect.objectContaining({ code: 'MalformedPolicy', message }),
    );
  });
  it('takes the version and object-lock actions as object actions', () => {
    const on = (Resource: string) =>
      doc([
        {
          Effect: 'Deny',
          Principal: '*',
          Action: ['s3:BypassGovernanceRetention', 's3:GetObjectVersion', 's3:PutObjectLegalHold'],
          Resource,
        },
      ]);
    expect(parseBucketPolicy(on('arn:aws:s3:::b/*'), 'b').statements).toHaveLength(1);
    expect(() => parseBucketPolicy(on('arn:aws:s3:::b'), 'b')).toThrow(
      expect.objectContaining({ message: 'Action does not apply to any resource(s) in statement' }),
    );
  });
});

describe('evaluatePolicy', () => {
  const policy = parseBucketPolicy(
    doc([
      {
        Effect: 'Allow',
        Principal: { AWS: ['arn:aws:iam::ALICE:root', 'BOB'] },
        Action: 's3:Get*',
        Resource: 'arn:aws:s3:::b/*',
      },
      { Effect: 'Deny', Principal: '*', Action: 's3:*', Resource: ['arn:aws:s3:::b/private/*'] },
      {
        Effect: 'Allow',
        Principal: '*',
        Action: 's3:ListBucket',
        Resource: 'arn:aws:s3:::b',
        Condition: { StringLike: { 's3:prefix': ['pub/*', 'docs?'] } },
      },
    ]),
    'b',
  );

  it('matches principals, action and resource wildcards; Deny wins', () => {
    expect(evaluatePolicy(policy, req('ALICE', 's3:GetObject', 'arn:aws:s3:::b/x'))).toBe('allow');
    expect(evaluatePolicy(policy, req('BOB', 's3:GetObjectTagging', 'arn:aws:s3:::b/x'))).toBe('allow');
    expect(evaluatePolicy(policy, req('CAROL', 's3:GetObject', 'arn:aws:s3:::b/x'))).toBe('none');
    expect(evaluatePolicy(policy, req('BOB', 's3:PutObject', 'arn:aws:s3:::b/x'))).toBe('none');
    expect(evaluatePolicy(policy, req('BOB', 's3:GetObject', 'arn:aws:s3:::b/private/x'))).toBe('deny');
    expect(evaluatePolicy(policy, req('', 's3:GetObject', 'arn:aws:s3:::b/x'))).toBe('none');
  });

  it('evaluates string-like conditions on list parameters', () => {
    const list = (prefix?: string) =>
      req(
        '',
        's3:ListBucket',
        'arn:aws:s3:::b',
        prefix === undefined ? new Map() : ctx({ 's3:prefix': prefix }),
      );
    expect(evaluatePolicy(policy, list('pub/a'))).toBe('allow');
    expect(evaluatePolicy(policy, list('docs1'))).toBe('allow');
    expect(evaluatePolicy(policy, list('docs12'))).toBe('none');
    expect(evaluatePolicy(policy, list())).toBe('none');
  });

  it('supports IP, Bool, negated and IfExists operators', () => {
    const p = parseBucketPolicy(
      doc([
        {
          Effect: 'Deny',
          Principal: '*',
          Action: 's3:*',
          Resource: 'arn:aws:s3:::b/*',
          Condition: { NotIpAddress: { 'aws:SourceIp': ['192.168.0.0/16', '2001:db8::/32'] } },
        },
        {
          Effect: 'Deny',
          Principal: '*',
          Action: 's3:PutObject',
          Resource: 'arn:aws:s3:::b/*',
          Condition: { StringNotEqualsIfExists: { 's3:x-amz-acl': 'private' } },
        },
        {
          Effect: 'Allow',
          Principal: '*',
          Action: 's3:*',
          Resource: 'arn:aws:s3:::b/*',
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        },
      ]),
      'b',
    );
    const at = (ip: string, extra: Record<string, string> = {}) =>
      conditionContext({
        access: 'A',
        sourceIp: ip,
        secure: false,
        signing: undefined,
        headers: extra,
        query: new URLSearchParams(),
      });
    expect(evaluatePolicy(p, req('A', 's3:GetObject', 'arn:aws:s3:::b/k', at('192.168.4.5')))).toBe('allow');
    expect(evaluatePolicy(p, req('A', 's3:GetObject', 'arn:aws:s3:::b/k', at('::ffff:192.168.4.5')))).toBe(
      'allow',
    );
    expect(evaluatePolicy(p, req('A', 's3:GetObject', 'arn:aws:s3:::b/k', at('2001:db8::1')))).toBe('allow');
    expect(evaluatePolicy(p, req('A', 's3:GetObject', 'arn:aws:s3:::b/k', at('10.1.1.1')))).toBe('deny');
    // IfExists: a missing key satisfies the condition, so the Deny applies.
    expect(evaluatePolicy(p, req('A', 's3:PutObject', 'arn:aws:s3:::b/k', at('192.168.1.1')))).toBe('deny');
    const priv = at('192.168.1.1', { 'x-amz-acl': 'private' });
    expect(evaluatePolicy(p, req('A', 's3:PutObject', 'arn:aws:s3:::b/k', priv))).toBe('allow');
    expect(
      evaluatePolicy(
        p,
        req('A', 's3:PutObject', 'arn:aws:s3:::b/k', at('192.168.1.1', { 'x-amz-acl': 'public-read' })),
      ),
    ).toBe('deny');
  });

  it('supports NotPrincipal, NotAction and NotResource', () => {
    const p = parseBucketPolicy(
      doc([
        {
          Effect: 'Deny',
          NotPrincipal: { AWS: 'OWNER' },
          NotAction: 's3:Get*',
          Resource: 'arn:aws:s3:::b/*',
        },
        { Effect: 'Allow', Principal: '*', Action: 's3:*', NotResource: 'arn:aws:s3:::b/private/*' },
      ]),
      'b',
    );
    expect(evaluatePolicy(p, req('X', 's3:PutObject', 'arn:aws:s3:::b/k'))).toBe('deny');
    expect(evaluatePolicy(p, req('OWNER', 's3:PutObject', 'arn:aws:s3:::b/k'))).toBe('allow');
    expect(evaluatePolicy(p, req('X', 's3:GetObject', 'arn:aws:s3:::b/k'))).toBe('allow');
    expect(evaluatePolicy(p, req('X', 's3:GetObject', 'arn:aws:s3:::b/private/k'))).toBe('none');
    expect(policyIsPublic(p)).toBe(true);
  });

  it('reports public policies', () => {
    expect(policyIsPublic(policy)).toBe(true);
    const narrowed = parseBucketPolicy(
      doc([
        {
          Effect: 'Allow',
          Principal: '*',
          Action: 's3:GetObject',
          Resource: 'arn:aws:s3:::b/*',
          Condition: { IpAddress: { 'aws:SourceIp': '10.0.0.0/8' } },
        },
      ]),
      'b',
    );
    expect(policyIsPublic(narrowed)).toBe(false);
    expect(ipInCidr('10.2.3.4', '10.0.0.0/8')).toBe(true);
    expect(ipInCidr('11.2.3.4', '10.0.0.0/8')).toBe(false);
  });
});
