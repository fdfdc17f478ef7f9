// The ACL/policy step of the pipeline: decides whether an (authenticated or anonymous) caller
// may perform a route's action on a bucket or object. Order: admin bypass → explicit Deny in
// the bucket policy → bucket owner → policy Allow → ACL grant (unless ACLs are disabled by
// `disableAcl` or BucketOwnerEnforced) → AccessDenied.
import { type Account, type Backend, type RequestContext, S3Error } from '@vgwrdma/s3-backend';
import { header, type RawHeaders } from '../http/headers.js';
import { aclGrants } from './acl/acl-permissions.js';
import { checkAclUsage } from './acl-usage.js';
import { type RouteShape, refuseAnonymous } from './anonymous-refusals.js';
import { type BucketState, BucketStateCache, type BucketStateCacheOptions } from './bucket-state.js';
import { conditionContext } from './condition-context.js';
import { withDeleteFilter } from './delete-filter.js';
import { evaluatePolicy } from './policy/index.js';

export interface AuthorizerOptions {
  /** versitygw's --disable-acl: ACLs neither settable nor consulted. */
  disableAcl?: boolean;
  cache?: BucketStateCacheOptions;
}

export interface AccessRequest {
  readonly route: RouteShape;
  readonly bucket: string;
  readonly key: string;
  readonly account: Account;
  readonly anonymous: boolean;
  readonly presigned: boolean;
  readonly headers: RawHeaders;
  readonly query: URLSearchParams;
  readonly sourceIp: string | undefined;
  readonly secure: boolean;
  readonly backend: Backend;
  readonly ctx: RequestContext;
}

const ARN = 'arn:aws:s3:::';
const EXISTING_TAG = 's3:existingobjecttag/';

/** What the router needs from the check: the bucket's state (CORS) and, for DeleteObjects, a filtered backend. */
export interface AuthzOutcome {
  readonly state?: BucketState;
  readonly backend?: Backend;
}

function resourceOf(req: AccessRequest): string {
  return req.key !== '' ? `${ARN}${req.bucket}/${req.key}` : `${ARN}${req.bucket}`;
}

/** `x-amz-copy-source` as bucket and key ('/b/k?versionId=..', URL-encoded). */
function copySource(headers: RawHeaders): { bucket: string; key: string } | undefined {
  const raw = header(headers, 'x-amz-copy-source');
  if (raw === undefined) return undefined;
  let path = raw.split('?')[0] ?? '';
  try {
    path = decodeURIComponent(path);
  } catch {
    return undefined;
  }
  if (path.startsWith('/')) path = path.slice(1);
  const slash = path.indexOf('/');
  if (slash <= 0) return undefined;
  return { bucket: path.slice(0, slash), key: path.slice(slash + 1) };
}

export class Authorizer {
  readonly cache: BucketStateCache;
  readonly disableAcl: boolean;

  constructor(opts: AuthorizerOptions = {}) {
    this.cache = new BucketStateCache(opts.cache);
    this.disableAcl = opts.disableAcl ?? false;
  }

  /**
   * Throws AccessDenied (or an ACL-usage error) when the request may not proceed; answers the
   * bucket's state when it was needed (CORS headers on the reply) and, for DeleteObjects, the
   * backend view that refuses the keys the caller may not delete.
   */
  async authorize(req: AccessRequest): Promise<AuthzOutcome> {
    const { route } = req;
    if (req.anonymous) refuseAnonymous(route);
    if (route.action === 's3:CreateBucket' || route.target === 'service' || req.bucket === '') return {};
    const state = await this.cache.get(req.backend, req.ctx, req.bucket);
    checkAclUsage(route.action, req.headers, state, this.disableAcl);
    const expectedOwner = header(req.headers, 'x-amz-expected-bucket-owner');
    if (expectedOwner !== undefined && expectedOwner !== state.acl.Owner) throw new S3Error('AccessDenied');
    if (req.account.role === 'admin' && !req.anonymous) return { state };
    if (route.target === 'bucket' && route.action === 's3:DeleteObject') {
      // DeleteObjects: each key is decided on its own (see delete-filter.ts).
      const allowed = (key: string) => this.allows(req, state, route.action, `${ARN}${req.bucket}/${key}`);
      return { state, backend: withDeleteFilter(req.backend, allowed) };
    }
    this.decide(req, state, route.action, resourceOf(req), await this.existingTags(req, state));
    const source = route.header === 'x-amz-copy-source' ? copySource(req.headers) : undefined;
    if (source) {
      const srcState =
        source.bucket === req.bucket ? state : await this.cache.get(req.backend, req.ctx, source.bucket);
      this.decide(req, srcState, 's3:GetObject', `${ARN}${source.bucket}/${source.key}`);
    }
    return { state };
  }

  /** Policy Deny, then owner, policy Allow and ACL grant, for one action on one resource. */
  private decide(
    req: AccessRequest,
    state: BucketState,
    action: string,
    resource: string,
    tags?: ReadonlyMap<string, string[]>,
  ): void {
    if (!this.allows(req, state, action, resource, tags)) throw new S3Error('AccessDenied');
  }

  /**
   * `s3:ExistingObjectTag/<key>` values, read from the backend only when the bucket policy has
   * a condition on them (other requests cost no extra read).
   */
  private async existingTags(
    req: AccessRequest,
    state: BucketState,
  ): Promise<Map<string, string[]> | undefined> {
    const wanted = state.policy?.statements.some((s) =>
      s.conditions.some((c) => c.key.startsWith(EXISTING_TAG)),
    );
    if (!wanted || req.key === '') return undefined;
    const tags = await req.backend
      .getObjectTagging(req.ctx, { bucket: req.bucket, key: req.key })
      .catch(() => ({}) as Record<string, string>);
    return new Map(Object.entries(tags).map(([k, v]) => [`${EXISTING_TAG}${k.toLowerCase()}`, [v]]));
  }

  private allows(
    req: AccessRequest,
    state: BucketState,
    action: string,
    resource: string,
    tags?: ReadonlyMap<string, string[]>,
  ): boolean {
    const access = req.anonymous ? '' : req.account.access;
    const decision = state.policy
      ? evaluatePolicy(state.policy, {
          principal: access,
          action,
          resource,
          context: conditionContext({
            access,
            sourceIp: req.sourceIp,
            secure: req.secure,
            presigned: req.presigned,
            headers: req.headers,
            query: req.query,
            ...(tags ? { extra: tags } : {}),
          }),
        })
      : 'none';
    if (decision === 'deny') return false;
    if (access !== '' && state.acl.Owner === access) return true;
    if (decision === 'allow') return true;
    const aclsApply = !this.disableAcl && state.ownership !== 'BucketOwnerEnforced';
    return aclsApply && aclGrants(state.acl, access, action);
  }
}
