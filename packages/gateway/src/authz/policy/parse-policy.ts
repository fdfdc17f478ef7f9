// Parses and validates a bucket policy document (PutBucketPolicy) into typed statements.
// Invalid documents are MalformedPolicy with S3's messages; a policy stored by another tool
// and found invalid later is treated as granting nothing (see bucket-state).
import { S3Error, type S3ErrorMessage } from '@vgwrdma/backend-contract';
import { splitOperator } from './conditions.js';
import type { BucketPolicy, PolicyCondition, PolicyStatement, Principals } from './types.js';
import { wildcardMatch } from './wildcard.js';

type Message = S3ErrorMessage<'MalformedPolicy'>;
const malformed = (m: Message): S3Error => new S3Error('MalformedPolicy', m);

const VERSIONS = new Set(['2012-10-17', '2008-10-17']);
const TOP_FIELDS = new Set(['Version', 'Id', 'Statement']);
const STATEMENT_FIELDS = new Set([
  'Sid',
  'Effect',
  'Principal',
  'NotPrincipal',
  'Action',
  'NotAction',
  'Resource',
  'NotResource',
  'Condition',
]);
const ARN_PREFIX = 'arn:aws:s3:::';
const ACTION_RE = /^(\*|s3:[A-Za-z*?]+)$/;
/** Actions on objects (their resources are `bucket/key` ARNs); every other s3 action is on buckets. */
const OBJECT_ACTION_RE =
  /^s3:((Get|Put|Delete|Restore)Object|AbortMultipartUpload$|ListMultipartUploadParts$|BypassGovernanceRetention$)/i;

/**
 * S3 refuses a statement none of whose actions applies to any of its resources, such as
 * s3:GetObject alone on `arn:aws:s3:::bucket`. A statement that mixes bucket and object actions
 * over bucket and object ARNs is valid: each action applies to the resources of its kind, as on
 * AWS. An action with a wildcard may name either kind, so it always applies.
 */
function checkApplicable(actions: readonly string[], resources: readonly string[]): void {
  const rests = resources.map((r) => (r === '*' ? '*' : r.slice(ARN_PREFIX.length)));
  // A '*' in the bucket part can span the '/' and so also names objects.
  const onObjects = rests.some((r) => r.includes('/') || r.includes('*'));
  const onBucket = rests.some((r) => !r.includes('/'));
  const applies = (a: string): boolean =>
    a.includes('*') || a.includes('?') || (OBJECT_ACTION_RE.test(a) ? onObjects : onBucket);
  if (!actions.some(applies)) throw malformed('Action does not apply to any resource(s) in statement');
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const isObject = (v: Json | undefined): v is { [k: string]: Json } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string or a non-empty array of strings, as IAM allows for most fields. */
function stringList(v: Json | undefined, missing: Message, invalid: Message): string[] {
  if (v === undefined) throw malformed(missing);
  const list = Array.isArray(v) ? v : [v];
  if (list.length === 0 || !list.every((s) => typeof s === 'string' && s !== '')) throw malformed(invalid);
  return list as string[];
}

function parsePrincipal(v: Json | undefined): Principals {
  if (v === undefined) throw malformed('Missing required field Principal');
  if (v === '*') return '*';
  if (!isObject(v)) throw malformed('Invalid principal in policy');
  // AWS: access keys or IAM ARNs; CanonicalUser: the owner IDs this gateway shows (access keys).
  const keys = Object.keys(v);
  if (keys.length === 0 || !keys.every((k) => k === 'AWS' || k === 'CanonicalUser'))
    throw malformed('Invalid principal in policy');
  const list = keys.flatMap((k) =>
    stringList(v[k], 'Invalid principal in policy', 'Invalid principal in policy'),
  );
  return list.includes('*') ? '*' : list;
}

function parseConditions(v: Json | undefined): PolicyCondition[] {
  if (v === undefined) return [];
  if (!isObject(v)) throw malformed('Invalid Condition operator');
  const out: PolicyCondition[] = [];
  for (const [rawOp, block] of Object.entries(v)) {
    const op = splitOperator(rawOp);
    if (!op || !isObject(block)) throw malformed('Invalid Condition operator');
    for (const [key, values] of Object.entries(block)) {
      const list = (Array.isArray(values) ? values : [values]).map((x) =>
        typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean' ? String(x) : undefined,
      );
      if (list.some((x) => x === undefined)) throw malformed('Invalid Condition operator');
      out.push({ ...op, key: key.toLowerCase(), values: list as string[] });
    }
  }
  return out;
}

/** `Name` or `NotName` (exactly one): the value and whether it was the Not form. */
function eitherField(
  v: { [k: string]: Json },
  name: 'Principal' | 'Action' | 'Resource',
  missing: Message,
): { value: Json | undefined; negated: boolean } {
  const plain = v[name];
  const not = v[`Not${name}`];
  if (plain !== undefined && not !== undefined) throw malformed(missing);
  return { value: plain ?? not, negated: plain === undefined && not !== undefined };
}

function parseStatement(v: Json, bucket: string): PolicyStatement {
  if (!isObject(v)) throw malformed('Missing required field Statement');
  for (const k of Object.keys(v)) if (!STATEMENT_FIELDS.has(k)) throw malformed('Unknown field in policy');
  const effect = v.Effect;
  if (effect === undefined) throw malformed('Missing required field Effect');
  if (effect !== 'Allow' && effect !== 'Deny') throw malformed('Invalid effect');
  const principal = eitherField(v, 'Principal', 'Missing required field Principal');
  const action = eitherField(v, 'Action', 'Missing required field Action');
  const resource = eitherField(v, 'Resource', 'Missing required field Resource');
  const principals = parsePrincipal(principal.value);
  const actions = stringList(action.value, 'Missing required field Action', 'Policy has invalid action');
  if (!actions.every((a) => ACTION_RE.test(a))) throw malformed('Policy has invalid action');
  const resources = stringList(
    resource.value,
    'Missing required field Resource',
    'Policy has invalid resource',
  );
  for (const r of resources) {
    if (r === '*') continue;
    if (!r.startsWith(ARN_PREFIX)) throw malformed('Policy has invalid resource');
    const bucketPart = r.slice(ARN_PREFIX.length).split('/')[0] ?? '';
    if (!wildcardMatch(bucketPart, bucket)) throw malformed('Policy has invalid resource');
  }
  if (!action.negated && !resource.negated) checkApplicable(actions, resources);
  return {
    ...(typeof v.Sid === 'string' ? { sid: v.Sid } : {}),
    effect,
    principals,
    actions: actions.map((a) => a.toLowerCase()),
    resources,
    conditions: parseConditions(v.Condition),
    negated: { principal: principal.negated, action: action.negated, resource: resource.negated },
  };
}

/** Parses `text` as the policy of `bucket`; throws MalformedPolicy when it is not one. */
export function parseBucketPolicy(text: string, bucket: string): BucketPolicy {
  let doc: Json;
  try {
    doc = JSON.parse(text) as Json;
  } catch {
    throw malformed("Policies must be valid JSON and the first byte must be '{'");
  }
  if (!isObject(doc)) throw malformed("Policies must be valid JSON and the first byte must be '{'");
  for (const k of Object.keys(doc)) if (!TOP_FIELDS.has(k)) throw malformed('Unknown field in policy');
  if (doc.Version !== undefined && !(typeof doc.Version === 'string' && VERSIONS.has(doc.Version)))
    throw malformed('Invalid policy version');
  const raw = doc.Statement;
  if (raw === undefined) throw malformed('Missing required field Statement');
  const list = Array.isArray(raw) ? raw : [raw];
  if (list.length === 0) throw malformed('Missing required field Statement');
  return { statements: list.map((s) => parseStatement(s, bucket)) };
}
