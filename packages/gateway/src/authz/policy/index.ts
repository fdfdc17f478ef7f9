// The bucket-policy engine: parse + validate on PutBucketPolicy, evaluate per request.

export { writeAllowCoversAcl } from './conditioned-acl.js';
export { conditionHolds, ipInCidr, OPERATORS } from './conditions.js';
export { evaluatePolicy, policyIsPublic, principalMatches } from './evaluate-policy.js';
export { parseBucketPolicy } from './parse-policy.js';
export type * from './types.js';
export { wildcardMatch } from './wildcard.js';
