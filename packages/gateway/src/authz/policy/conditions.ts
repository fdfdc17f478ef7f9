// Condition operators as a table: each entry says how one request value compares with one
// policy value. Positive operators hold when any request value matches any policy value;
// their `Not` forms hold when none does (and when the key is missing, as in IAM). The set
// qualifiers ForAllValues / ForAnyValue judge each value of a multi-valued key on its own.
import { BlockList, isIP } from 'node:net';
import type { PolicyCondition, SetQualifier } from './types.js';
import { wildcardMatch } from './wildcard.js';

type Compare = (requestValue: string, policyValue: string) => boolean;

interface OperatorSpec {
  readonly compare: Compare;
  /** Holds when no value matches, rather than when one does. */
  readonly negated: boolean;
}

const num = (a: string, b: string, f: (x: number, y: number) => boolean): boolean => {
  const x = Number(a);
  const y = Number(b);
  return a.trim() !== '' && b.trim() !== '' && Number.isFinite(x) && Number.isFinite(y) && f(x, y);
};
const date = (a: string, b: string, f: (x: number, y: number) => boolean): boolean => {
  const x = Date.parse(a);
  const y = Date.parse(b);
  return Number.isFinite(x) && Number.isFinite(y) && f(x, y);
};

function plainIp(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

/** `ip` inside `cidr` ('10.0.0.0/8', '2001:db8::/32', or a bare address). */
export function ipInCidr(ip: string, cidr: string): boolean {
  const addr = plainIp(ip);
  const [net = '', bits] = cidr.trim().split('/');
  const family = isIP(net);
  if (family === 0 || isIP(addr) !== family) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 4 ? 32 : 128)) return false;
  const list = new BlockList();
  list.addSubnet(net, prefix, type);
  return list.check(addr, type);
}

const stringEq: Compare = (a, b) => a === b;
const stringEqIc: Compare = (a, b) => a.toLowerCase() === b.toLowerCase();
const stringLike: Compare = (a, b) => wildcardMatch(b, a);
const boolEq: Compare = (a, b) => a.toLowerCase() === b.toLowerCase();

// biome-ignore format: a table reads best one row per line
export const OPERATORS: Readonly<Record<string, OperatorSpec>> = {
  StringEquals: { compare: stringEq, negated: false },
  StringNotEquals: { compare: stringEq, negated: true },
  StringEqualsIgnoreCase: { compare: stringEqIc, negated: false },
  StringNotEqualsIgnoreCase: { compare: stringEqIc, negated: true },
  StringLike: { compare: stringLike, negated: false },
  StringNotLike: { compare: stringLike, negated: true },
  NumericEquals: { compare: (a, b) => num(a, b, (x, y) => x === y), negated: false },
  NumericNotEquals: { compare: (a, b) => num(a, b, (x, y) => x === y), negated: true },
  NumericLessThan: { compare: (a, b) => num(a, b, (x, y) => x < y), negated: false },
  NumericLessThanEquals: { compare: (a, b) => num(a, b, (x, y) => x <= y), negated: false },
  NumericGreaterThan: { compare: (a, b) => num(a, b, (x, y) => x > y), negated: false },
  NumericGreaterThanEquals: { compare: (a, b) => num(a, b, (x, y) => x >= y), negated: false },
  DateEquals: { compare: (a, b) => date(a, b, (x, y) => x === y), negated: false },
  DateNotEquals: { compare: (a, b) => date(a, b, (x, y) => x === y), negated: true },
  DateLessThan: { compare: (a, b) => date(a, b, (x, y) => x < y), negated: false },
  DateLessThanEquals: { compare: (a, b) => date(a, b, (x, y) => x <= y), negated: false },
  DateGreaterThan: { compare: (a, b) => date(a, b, (x, y) => x > y), negated: false },
  DateGreaterThanEquals: { compare: (a, b) => date(a, b, (x, y) => x >= y), negated: false },
  Bool: { compare: boolEq, negated: false },
  IpAddress: { compare: ipInCidr, negated: false },
  NotIpAddress: { compare: ipInCidr, negated: true },
  ArnEquals: { compare: stringEq, negated: false },
  ArnNotEquals: { compare: stringEq, negated: true },
  ArnLike: { compare: stringLike, negated: false },
  ArnNotLike: { compare: stringLike, negated: true },
};

const SET_QUALIFIERS: readonly SetQualifier[] = ['ForAllValues', 'ForAnyValue'];

export interface SplitOperator {
  readonly operator: string;
  readonly ifExists: boolean;
  readonly set?: SetQualifier;
}

/**
 * Accepts `Op`, `OpIfExists` and `Null`, each optionally qualified `ForAllValues:` or
 * `ForAnyValue:` (not `Null`); answers undefined for anything else.
 */
export function splitOperator(raw: string): SplitOperator | undefined {
  const colon = raw.indexOf(':');
  const qualifier = colon < 0 ? undefined : SET_QUALIFIERS.find((q) => q === raw.slice(0, colon));
  if (colon >= 0 && !qualifier) return undefined;
  const name = qualifier ? raw.slice(colon + 1) : raw;
  const set = qualifier ? { set: qualifier } : {};
  if (name === 'Null') return qualifier ? undefined : { operator: 'Null', ifExists: false };
  const ifExists = name.endsWith('IfExists');
  const operator = ifExists ? name.slice(0, -'IfExists'.length) : name;
  return Object.hasOwn(OPERATORS, operator) ? { operator, ifExists, ...set } : undefined;
}

export function conditionHolds(
  cond: PolicyCondition,
  context: ReadonlyMap<string, readonly string[]>,
): boolean {
  const values = context.get(cond.key);
  if (cond.operator === 'Null') {
    const wantAbsent = cond.values.some((v) => v.toLowerCase() === 'true');
    return wantAbsent === (values === undefined);
  }
  const spec = Object.hasOwn(OPERATORS, cond.operator) ? OPERATORS[cond.operator] : undefined;
  if (!spec) return false;
  // One request value against the policy's list: a positive operator holds when a policy
  // value matches, a negated one when none does.
  const holds = (rv: string): boolean => cond.values.some((pv) => spec.compare(rv, pv)) !== spec.negated;
  if (cond.set === 'ForAllValues') return values === undefined || values.every(holds);
  if (values === undefined) return cond.ifExists || (cond.set === undefined && spec.negated);
  if (cond.set === 'ForAnyValue') return values.some(holds);
  const any = values.some((rv) => cond.values.some((pv) => spec.compare(rv, pv)));
  return spec.negated ? !any : any;
}
