// Bucket policies as the tests write them: a statement as data (allow/deny of a principal, an
// action and a resource, with an optional condition), the ARNs of a bucket and of its objects,
// the JSON document PutBucketPolicy takes, and that call itself. The principal is passed on as
// given ('*', { AWS: key } or { AWS: [keys] }), so each test still sends the spelling it chose.
import { PutBucketPolicyCommand, type S3Client } from '@aws-sdk/client-s3';

export interface PolicyStatement {
  readonly Effect: 'Allow' | 'Deny';
  readonly Action: string | readonly string[];
  readonly Resource: string | readonly string[];
  readonly Principal?: unknown;
  readonly NotPrincipal?: unknown;
  readonly Condition?: unknown;
}

/** `arn:aws:s3:::bucket`. */
export const bucketArn = (bucket: string): string => `arn:aws:s3:::${bucket}`;
/** `arn:aws:s3:::bucket/<prefix>*`: the bucket's objects (under `prefix`). */
export const objectsArn = (bucket: string, prefix = ''): string => `arn:aws:s3:::${bucket}/${prefix}*`;

/** The policy document (Version 2012-10-17) of `statements`, as PutBucketPolicy sends it. */
export const policyDocument = (statements: readonly PolicyStatement[]): string =>
  JSON.stringify({ Version: '2012-10-17', Statement: statements });

function statement(Effect: PolicyStatement['Effect']) {
  return (
    Principal: unknown,
    Action: PolicyStatement['Action'],
    Resource: PolicyStatement['Resource'],
    Condition?: unknown,
  ): PolicyStatement => ({
    Effect,
    Principal,
    Action,
    Resource,
    ...(Condition === undefined ? {} : { Condition }),
  });
}

/** An Allow statement: `Principal` may `Action` on `Resource` (when `Condition` holds). */
export const allow = statement('Allow');
/** A Deny statement: `Principal` may not `Action` on `Resource` (when `Condition` holds). */
export const deny = statement('Deny');

/** PutBucketPolicy of `statements` on `Bucket`, sent by `client`. */
export function putBucketPolicy(
  client: S3Client,
  Bucket: string,
  statements: readonly PolicyStatement[],
): Promise<unknown> {
  return client.send(new PutBucketPolicyCommand({ Bucket, Policy: policyDocument(statements) }));
}
