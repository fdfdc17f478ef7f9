// The POST policy document: the base64 JSON a form carries in its `policy` field, parsed once
// into typed conditions. Its shape is S3's: `expiration` (ISO 8601) and `conditions`, each an
// exact match (`{"acl": "private"}` or `["eq", "$acl", "private"]`), a prefix
// (`["starts-with", "$key", "user/"]`) or a size range (`["content-length-range", 0, 1024]`).
// The top-level names are case-sensitive; operators and field names are not.
import { S3Error } from '@vgwrdma/backend-contract';

export type FieldCondition = {
  readonly op: 'eq' | 'starts-with';
  /** Lower-case form field name, without the '$'. */
  readonly field: string;
  readonly value: string;
  /** The condition as the client wrote it, for error messages. */
  readonly text: string;
};

export interface LengthRange {
  readonly min: number;
  readonly max: number;
}

export interface PolicyDocument {
  readonly expiration: Date;
  readonly fields: readonly FieldCondition[];
  readonly length?: LengthRange;
}

const invalid = (detail: string) => S3Error.custom('InvalidPolicyDocument', `Invalid Policy: ${detail}`);

/** `2026-11-29T12:00:00Z` or with milliseconds; what S3 accepts as an expiration. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;

export function parsePolicyDocument(base64: string): PolicyDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(base64, 'base64').toString('utf8'));
  } catch {
    throw invalid('Invalid JSON.');
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw invalid('Invalid JSON.');
  const { expiration, conditions } = doc as Record<string, unknown>;
  if (expiration === undefined) throw invalid('Policy missing expiration.');
  if (typeof expiration !== 'string' || !ISO_8601.test(expiration) || Number.isNaN(Date.parse(expiration)))
    throw invalid(`Invalid 'expiration' value: '${String(expiration)}'`);
  if (conditions === undefined) throw invalid('Policy missing conditions.');
  if (!Array.isArray(conditions)) throw invalid("Invalid 'conditions' value: must be a list.");

  const fields: FieldCondition[] = [];
  let length: LengthRange | undefined;
  for (const c of conditions) {
    if (Array.isArray(c) && String(c[0]).toLowerCase() === 'content-length-range') length = parseRange(c);
    else fields.push(parseFieldCondition(c));
  }
  return { expiration: new Date(expiration), fields, ...(length ? { length } : {}) };
}

/** `["starts-with", "$key", "user/"]`: a condition as S3 quotes it in error messages. */
function quote(items: readonly unknown[]): string {
  return `[${items.map((v) => JSON.stringify(v)).join(', ')}]`;
}

function parseFieldCondition(c: unknown): FieldCondition {
  const text = Array.isArray(c) ? quote(c) : JSON.stringify(c);
  if (Array.isArray(c)) {
    const [rawOp, rawField, value] = c as unknown[];
    const op = String(rawOp).toLowerCase();
    if (c.length !== 3 || (op !== 'eq' && op !== 'starts-with')) throw invalid(`Invalid Condition: ${text}`);
    if (typeof rawField !== 'string' || !rawField.startsWith('$') || typeof value !== 'string')
      throw invalid(`Invalid Condition: ${text}`);
    return { op, field: rawField.slice(1).toLowerCase(), value, text };
  }
  if (typeof c === 'object' && c !== null) {
    const entries = Object.entries(c);
    if (entries.length !== 1)
      throw invalid('Invalid Simple-Condition: Simple-Conditions must have exactly one property specified.');
    const [field, value] = entries[0] as [string, unknown];
    if (typeof value !== 'string') throw invalid(`Invalid Simple-Condition: ${text}`);
    return { op: 'eq', field: field.toLowerCase(), value, text: quote(['eq', `$${field}`, value]) };
  }
  throw invalid(`Invalid Condition: ${text}`);
}

function parseRange(c: unknown[]): LengthRange {
  const [, min, max] = c.map((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v));
  if (c.length !== 3 || !Number.isSafeInteger(min) || !Number.isSafeInteger(max))
    throw invalid(`Invalid 'content-length-range' condition: ${JSON.stringify(c)}`);
  if ((min as number) < 0 || (max as number) < (min as number))
    throw invalid(`Invalid 'content-length-range' condition: ${JSON.stringify(c)}`);
  return { min: min as number, max: max as number };
}
