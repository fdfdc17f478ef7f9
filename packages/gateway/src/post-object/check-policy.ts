// Holds a POST form against its policy document: not expired, every condition met, and every
// form field named by some condition (except the fields that carry the signature itself, the
// file, `x-ignore-*` and the `x-amz-checksum-*` fields, which only make the upload verified: a
// wrong value refuses it, none widens what the policy allows, and AWS takes them unlisted). Failures are AccessDenied with S3's "Invalid according to Policy"
// texts. `bucket` is checked against the bucket the request was sent to, whatever the form says.
import { S3Error } from '@vgwrdma/backend-contract';
import type { FieldCondition, PolicyDocument } from './policy-document.js';

/** Fields a policy need not mention (lower-case). */
const EXEMPT = new Set(['policy', 'x-amz-signature', 'signature', 'awsaccesskeyid', 'file']);

const denied = (detail: string) => S3Error.custom('AccessDenied', `Invalid according to Policy: ${detail}`);

/** `fields`: lower-case names → values, with `key` already resolved and `bucket` the target bucket. */
export function checkPolicy(doc: PolicyDocument, fields: ReadonlyMap<string, string>, now: Date): void {
  if (now.getTime() > doc.expiration.getTime()) throw denied('Policy expired.');
  for (const condition of doc.fields) {
    if (!holds(condition, fields.get(condition.field) ?? ''))
      throw denied(`Policy Condition failed: ${condition.text}`);
  }
  const covered = new Set(doc.fields.map((c) => c.field));
  for (const name of fields.keys()) {
    if (EXEMPT.has(name) || name.startsWith('x-ignore-') || name.startsWith('x-amz-checksum-')) continue;
    if (covered.has(name)) continue;
    throw denied(`Extra input fields: ${name}`);
  }
}

function holds(c: FieldCondition, value: string): boolean {
  if (c.op === 'eq') return value === c.value;
  // Content-Type may list several types; each must carry the prefix.
  if (c.field === 'content-type') return value.split(',').every((v) => v.trim().startsWith(c.value));
  return value.startsWith(c.value);
}
