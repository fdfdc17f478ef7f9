// Statement applicability per statement (bucket and object actions mixed over both kinds of
// ARN), and the ACL headers a PutObject Allow admits through its own conditions.
import { describe, expect, it } from 'vitest';
import { keepsUnderDeny } from '../../../src/authz/deny-proof.js';
import { parseBucketPolicy, policyIsPublic, writeAllowCoversAcl } from '../../../src/authz/policy/index.js';

const doc = (Statement: object[]) => JSON.stringify({ Version: '2012-10-17', Statement });
const allow = (extra: object) => ({
  Effect: 'Allow',
  Principal: '*',
  Resource: 'arn:aws:s3:::b/*',
  ...extra,
});
const put = (context: Record<string, string>) => ({
  principal: 'alt',
  action: 's3:PutObject',
  resource: 'arn:aws:s3:::b/k',
  context: new Map(Object.entries(context).map(([k, v]) => [k, [v]])),
});

describe('action applicability', () => {
  it('accepts a statement whose actions each apply to some of its resources', () => {
    const mixed = doc([
      {
        Effect: 'Allow',
        Principal: '*',
        Action: ['s3:ListBucketMultipartUploads', 's3:ListMultipartUploadParts', 's3:AbortMultipartUpload'],
        Resource: ['arn:aws:s3:::b', 'arn:aws:s3:::b/*'],
      },
    ]);
    expect(parseBucketPolicy(mixed, 'b').statements).toHaveLength(1);
    // Only one action fits the bucket ARN: still a valid statement.
    const partly = doc([allow({ Action: ['s3:GetObject', 's3:ListBucket'], Resource: 'arn:aws:s3:::b' })]);
    expect(parseBucketPolicy(partly, 'b').statements).toHaveLength(1);
  });

  it('refuses a statement none of whose actions applies to any resource', () => {
    const none = doc([allow({ Action: ['s3:GetObject', 's3:PutObject'], Resource: 'arn:aws:s3:::b' })]);
    expect(() => parseBucketPolicy(none, 'b')).toThrow(
      expect.objectContaining({ message: 'Action does not apply to any resource(s) in statement' }),
    );
  });
});

describe('writeAllowCoversAcl', () => {
  const policy = parseBucketPolicy(
    doc([
      allow({
        Action: 's3:PutObject',
        Condition: { StringEquals: { 's3:x-amz-grant-full-control': 'id=main' } },
      }),
    ]),
    'b',
  );

  it('admits the grant header the Allow requires, with the required value', () => {
    expect(writeAllowCoversAcl(policy, put({ 's3:x-amz-grant-full-control': 'id=main' }))).toBe(true);
  });

  it('admits nothing for another value, another header, or no header', () => {
    expect(writeAllowCoversAcl(policy, put({ 's3:x-amz-grant-full-control': 'id=alt' }))).toBe(false);
    expect(
      writeAllowCoversAcl(
        policy,
        put({ 's3:x-amz-grant-full-control': 'id=main', 's3:x-amz-grant-read': 'id=x' }),
      ),
    ).toBe(false);
    expect(writeAllowCoversAcl(policy, put({}))).toBe(false);
  });
});

describe('keepsUnderDeny', () => {
  it('leaves the owner and admins the bucket-policy actions only', () => {
    expect(keepsUnderDeny('s3:PutBucketPolicy', true)).toBe(true);
    expect(keepsUnderDeny('s3:DeleteBucketPolicy', true)).toBe(true);
    expect(keepsUnderDeny('s3:GetBucketPolicy', false)).toBe(false);
    expect(keepsUnderDeny('s3:GetObject', true)).toBe(false);
  });
});

describe('policyIsPublic and NotPrincipal', () => {
  it('takes an Allow with NotPrincipal for public (everyone but the accounts it names), a Deny not', () => {
    const notPrincipal = (Effect: string) =>
      parseBucketPolicy(
        doc([
          {
            Effect,
            NotPrincipal: { AWS: 'arn:aws:iam::someone:root' },
            Action: 's3:ListBucket',
            Resource: 'arn:aws:s3:::b',
          },
        ]),
        'b',
      );
    expect(policyIsPublic(notPrincipal('Allow'))).toBe(true);
    expect(policyIsPublic(notPrincipal('Deny'))).toBe(false);
  });
});
