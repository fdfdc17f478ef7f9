// Evaluates a parsed bucket policy for one request: an explicit Deny wins over any Allow, an
// Allow grants, and no matching statement leaves the decision to ACLs and ownership.
import { conditionHolds } from './conditions.js';
import type { BucketPolicy, PolicyDecision, PolicyRequest, PolicyStatement, Principals } from './types.js';
import { wildcardMatch } from './wildcard.js';

/** A principal entry names an access key directly or as the account/user of an IAM ARN. */
function principalNames(entry: string, access: string): boolean {
  if (entry === access) return true;
  if (!entry.startsWith('arn:aws:iam::')) return false;
  const [account = '', resource = ''] = entry.slice('arn:aws:iam::'.length).split(':');
  if (resource === 'root') return account === access;
  return resource.startsWith('user/') && wildcardMatch(resource.slice(5), access);
}

export function principalMatches(principals: Principals, access: string): boolean {
  if (principals === '*') return true;
  if (access === '') return false;
  return principals.some((p) => principalNames(p, access));
}

export function statementApplies(s: PolicyStatement, req: PolicyRequest): boolean {
  const action = req.action.toLowerCase();
  const principal = principalMatches(s.principals, req.principal);
  const actionListed = s.actions.some((a) => wildcardMatch(a, action));
  const resourceListed = s.resources.some((r) => r === '*' || wildcardMatch(r, req.resource));
  return (
    principal !== s.negated.principal &&
    actionListed !== s.negated.action &&
    resourceListed !== s.negated.resource &&
    s.conditions.every((c) => conditionHolds(c, req.context))
  );
}

export function evaluatePolicy(policy: BucketPolicy, req: PolicyRequest): PolicyDecision {
  let allowed = false;
  for (const s of policy.statements) {
    if (!statementApplies(s, req)) continue;
    if (s.effect === 'Deny') return 'deny';
    allowed = true;
  }
  return allowed ? 'allow' : 'none';
}

/**
 * GetBucketPolicyStatus: public when an Allow statement names everyone (an Allow with
 * NotPrincipal admits everyone but a few) and is not narrowed by a condition on the caller's
 * address or account (the common cases S3 treats as non-public).
 */
const NARROWING_KEYS = new Set([
  'aws:sourceip',
  'aws:sourcevpc',
  'aws:sourcevpce',
  'aws:sourceaccount',
  'aws:principalaccount',
  'aws:userid',
  'aws:username',
]);

/** Everyone: `Principal: "*"`, or a NotPrincipal that leaves everyone but the accounts it names. */
const namesEveryone = (s: PolicyStatement): boolean =>
  s.negated.principal ? s.principals !== '*' : s.principals === '*';

export function policyIsPublic(policy: BucketPolicy): boolean {
  return policy.statements.some(
    (s) => s.effect === 'Allow' && namesEveryone(s) && !s.conditions.some((c) => NARROWING_KEYS.has(c.key)),
  );
}
