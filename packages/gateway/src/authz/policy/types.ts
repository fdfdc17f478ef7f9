// A bucket policy parsed once into typed statements. Every list field is normalised to an array
// and every condition to (operator, key, values), so evaluation never re-reads the JSON.

export type Effect = 'Allow' | 'Deny';

/** '*' matches everyone, anonymous included; otherwise access keys or ARNs naming them. */
export type Principals = '*' | readonly string[];

export type SetQualifier = 'ForAllValues' | 'ForAnyValue';

export interface PolicyCondition {
  /** The operator without an `IfExists` suffix, e.g. 'StringLike'. */
  readonly operator: string;
  /** With `IfExists`: a missing key satisfies the condition. */
  readonly ifExists: boolean;
  /**
   * A set qualifier for multi-valued keys (s3:RequestObjectTagKeys): `ForAllValues`, every
   * request value must satisfy the operator (a missing key does); `ForAnyValue`, one must.
   */
  readonly set?: SetQualifier;
  /** Lower-cased condition key, e.g. 'aws:sourceip'. */
  readonly key: string;
  readonly values: readonly string[];
}

export interface PolicyStatement {
  readonly sid?: string;
  readonly effect: Effect;
  readonly principals: Principals;
  /** Action patterns, lower-cased ('s3:get*'). */
  readonly actions: readonly string[];
  /** Resource patterns as ARNs ('arn:aws:s3:::bucket/*'). */
  readonly resources: readonly string[];
  readonly conditions: readonly PolicyCondition[];
  /** Which of the three lists came as NotPrincipal / NotAction / NotResource (match = not listed). */
  readonly negated: { readonly principal: boolean; readonly action: boolean; readonly resource: boolean };
}

export interface BucketPolicy {
  readonly statements: readonly PolicyStatement[];
}

/** What a request looks like to the policy engine. */
export interface PolicyRequest {
  /** The signing access key; '' for anonymous requests. */
  readonly principal: string;
  /** 's3:GetObject' etc. */
  readonly action: string;
  /** 'arn:aws:s3:::bucket' or 'arn:aws:s3:::bucket/key'. */
  readonly resource: string;
  /** Condition key (lower-case) → value(s); a missing key is absent from the map. */
  readonly context: ReadonlyMap<string, readonly string[]>;
}

export type PolicyDecision = 'allow' | 'deny' | 'none';
