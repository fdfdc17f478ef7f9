// The ACL/policy step of the pipeline: decides whether an (authenticated or anonymous) caller
// may perform a route's action on a bucket or object. Order: role (CreateBucket: admin and
// userplus only) → admin bypass → explicit Deny in the bucket policy → bucket owner → policy
// Allow → ACL grant (unless ACLs are disabled by `disableAcl` or BucketOwnerEnforced) →
// AccessDenied. An object request is checked for every action it needs (request-actions.ts:
// version variants, bypass and object-lock headers), and a copy also for reading its source,
// with the source object's tags and version in the condition context.
import {
  type Account,
  type Backend,
  type CopySource,
  type RequestContext,
  S3Error,
} from '@vgwrdma/s3-backend';
import { parseCopySource } from '../http/copy-source.js';
import { header, queryValue, type RawHeaders } from '../http/headers.js';
import { aclGrants } from './acl/acl-permissions.js';
import { checkAclUsage } from './acl-usage.js';
import { type RouteShape, refuseAnonymous } from './anonymous-refusals.js';
import { type BucketState, BucketStateCache, type BucketStateCacheOptions } from './bucket-state.js';
import { conditionContext } from './condition-context.js';
import { withDeleteFilter } from './delete-filter.js';
import { evaluatePolicy } from './policy/index.js';
import { copySourceAction, objectActions } from './request-actions.js';
import { checkRole } from './roles.js';

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

/** One resource a check is about, with what its condition context needs. */
interface Target {
  readonly state: BucketState;
  readonly resource: string;
  /** What s3:versionid and the list keys are read from: the request's query, or the copy source's version. */
  readonly query: URLSearchParams;
  /** s3:ExistingObjectTag/<key> of the object (only read when the bucket policy asks). */
  readonly tags?: ReadonlyMap<string, string[]> | undefined;
}

function resourceOf(req: AccessRequest): string {
  return req.key !== '' ? `${ARN}${req.bucket}/${req.key}` : `${ARN}${req.bucket}`;
}

function versionQuery(versionId: string | undefined): URLSearchParams {
  return new URLSearchParams(versionId === undefined ? {} : { versionId });
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
    else checkRole(route.action, req.account);
    if (route.action === 's3:CreateBucket' || route.target === 'service' || req.bucket === '') return {};
    const state = await this.cache.get(req.backend, req.ctx, req.bucket);
    checkAclUsage(route.action, req.headers, state, this.disableAcl);
    const expectedOwner = header(req.headers, 'x-amz-expected-bucket-owner');
    if (expectedOwner !== undefined && expectedOwner !== state.acl.Owner) throw new S3Error('AccessDenied');
    if (req.account.role === 'admin' && !req.anonymous) return { state };
    if (route.target === 'bucket' && route.action === 's3:DeleteObject') {
      // DeleteObjects: each key (and version) is decided on its own (see delete-filter.ts).
      const allowed = (o: { key: string; versionId?: string }) => {
        const target = { state, resource: `${ARN}${req.bucket}/${o.key}`, query: versionQuery(o.versionId) };
        const actions = objectActions(route, req.headers, o.versionId !== undefined);
        return actions.every((action) => this.allows(req, target, action));
      };
      return { state, backend: withDeleteFilter(req.backend, allowed) };
    }
    if (req.key === '') {
      this.decide(req, { state, resource: resourceOf(req), query: req.query }, route.action);
      return { state };
    }
    const versionId = queryValue(req.query, 'versionId');
    const tags = await this.existingTags(req, state, { bucket: req.bucket, key: req.key, versionId });
    const target = { state, resource: resourceOf(req), query: req.query, tags };
    for (const action of objectActions(route, req.headers, versionId !== undefined))
      this.decide(req, target, action);
    if (route.header === 'x-amz-copy-source') await this.authorizeSource(req, state);
    return { state };
  }

  /**
   * A copy (CopyObject, UploadPartCopy) reads its source: s3:GetObject, or s3:GetObjectVersion
   * for a version, under the source bucket's policy, with the source object's tags and version
   * in the condition context. Runs before the handler, so a refusal copies nothing.
   */
  private async authorizeSource(req: AccessRequest, state: BucketState): Promise<void> {
    const source: CopySource = parseCopySource(req.headers);
    const srcState =
      source.bucket === req.bucket ? state : await this.cache.get(req.backend, req.ctx, source.bucket);
    const tags = await this.existingTags(req, srcState, source);
    const target = {
      state: srcState,
      resource: `${ARN}${source.bucket}/${source.key}`,
      query: versionQuery(source.versionId),
      tags,
    };
    this.decide(req, target, copySourceAction(source.versionId));
  }

  /** Policy Deny, then owner, policy Allow and ACL grant, for one action on one resource. */
  private decide(req: AccessRequest, target: Target, action: string): void {
    if (!this.allows(req, target, action)) throw new S3Error('AccessDenied');
  }

  /**
   * `s3:ExistingObjectTag/<key>` values of one object (version), read from the backend only
   * when the bucket policy has a condition on them (other requests cost no extra read).
   */
  private async existingTags(
    req: AccessRequest,
    state: BucketState,
    object: { bucket: string; key: string; versionId?: string | undefined },
  ): Promise<Map<string, string[]> | undefined> {
    const wanted = state.policy?.statements.some((s) =>
      s.conditions.some((c) => c.key.startsWith(EXISTING_TAG)),
    );
    if (!wanted) return undefined;
    const { bucket, key, versionId } = object;
    const tags = await req.backend
      .getObjectTagging(req.ctx, versionId === undefined ? { bucket, key } : { bucket, key, versionId })
      .catch(() => ({}) as Record<string, string>);
    return new Map(Object.entries(tags).map(([k, v]) => [`${EXISTING_TAG}${k.toLowerCase()}`, [v]]));
  }

  private allows(req: AccessRequest, target: Target, action: string): boolean {
    const { state } = target;
    const access = req.anonymous ? '' : req.account.access;
    const decision = state.policy
      ? evaluatePolicy(state.policy, {
          principal: access,
          action,
          resource: target.resource,
          context: conditionContext({
            access,
            sourceIp: req.sourceIp,
            secure: req.secure,
            presigned: req.presigned,
            headers: req.headers,
            query: target.query,
            ...(target.tags ? { extra: target.tags } : {}),
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
