// The ACL/policy step of the pipeline: decides whether an (authenticated or anonymous) caller
// may perform a route's action on a bucket or object. Order: role (CreateBucket: admin and
// userplus only) → explicit Deny in the bucket policy (admins and the owner too, except the
// bucket-policy actions: deny-proof.ts) → admin → policy Allow (not for
// other accounts under RestrictPublicBuckets with a public policy) → bucket owner (everything
// but the bucket ACL's READ/WRITE, which its own grant decides) → ACL grant (unless ACLs are
// disabled by `disableAcl` or BucketOwnerEnforced; group grants not under IgnorePublicAcls) →
// AccessDenied. Reading an object (also its tags, attributes, retention and legal hold) and its
// ACL, and writing its ACL, are decided by the object's own ACL where it has one, the bucket ACL
// otherwise. An object request is checked for every
// action it needs (request-actions.ts: version variants, bypass and object-lock headers), a
// write for the ACL and tags it sets (write-options.ts), and a copy also for reading its source, with the source object's tags and version in the condition
// context. A request for a missing object answers 404 only to callers who may list the bucket
// (s3:ListBucket with the key as s3:prefix), AccessDenied to others.
import {
  type Account,
  type Backend,
  type BucketAcl,
  type CopySource,
  type RequestContext,
  S3Error,
} from '@vgwrdma/backend-contract';
import type { SigningFacts } from '../auth/index.js';
import { parseCopySource } from '../http/copy-source.js';
import { header, queryValue, type RawHeaders } from '../http/headers.js';
import { aclGrants, decidedByObjectAcl, isAclAccess, permissionFor } from './acl/acl-permissions.js';
import { checkAclUsage } from './acl-usage.js';
import { type RouteShape, refuseAnonymous } from './anonymous-refusals.js';
import { type BucketState, BucketStateCache, type BucketStateCacheOptions } from './bucket-state.js';
import { conditionContext } from './condition-context.js';
import { withDeleteFilter } from './delete-filter.js';
import { keepsUnderDeny } from './deny-proof.js';
import { lookupObjectAcl } from './object-acl-lookup.js';
import { evaluatePolicy, type PolicyRequest, policyIsPublic, writeAllowCoversAcl } from './policy/index.js';
import { copySourceAction, objectActions } from './request-actions.js';
import { checkRole } from './roles.js';
import { writeOptionActions } from './write-options.js';

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
  /** How the request (or the POST form) was signed; undefined when anonymous. */
  readonly signing: SigningFacts | undefined;
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
  /** The object's own ACL, where it has one and the check needed it. */
  readonly objectAcl?: BucketAcl | undefined;
}

function resourceOf(req: AccessRequest): string {
  return req.key !== '' ? `${ARN}${req.bucket}/${req.key}` : `${ARN}${req.bucket}`;
}

const isAdmin = (req: AccessRequest): boolean => req.account.role === 'admin' && !req.anonymous;

/** The request as the policy engine sees it, for one action on the target's resource. */
function policyRequest(req: AccessRequest, target: Target, action: string): PolicyRequest {
  const access = req.anonymous ? '' : req.account.access;
  return {
    principal: access,
    action,
    resource: target.resource,
    context: conditionContext({
      access,
      sourceIp: req.sourceIp,
      secure: req.secure,
      signing: req.signing,
      headers: req.headers,
      query: target.query,
      ...(target.tags ? { extra: target.tags } : {}),
    }),
  };
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
    const object = { bucket: req.bucket, key: req.key, ...(versionId === undefined ? {} : { versionId }) };
    const actions = objectActions(route, req.headers, versionId !== undefined);
    const objectAcl = await this.objectAclFor(req, state, object, actions);
    if (objectAcl === 'missing') {
      this.refuseUnlisted(req, state, req.key);
      return { state };
    }
    const tags = await this.existingTags(req, state, object);
    const target = { state, resource: resourceOf(req), query: req.query, tags, objectAcl };
    for (const action of actions) this.decide(req, target, action);
    for (const action of writeOptionActions(route, req.headers)) {
      if (!this.allowsWriteOption(req, target, action)) throw new S3Error('AccessDenied');
    }
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
    const action = copySourceAction(source.versionId);
    const objectAcl = await this.objectAclFor(req, srcState, source, [action]);
    if (objectAcl === 'missing') return this.refuseUnlisted(req, srcState, source.key, source.bucket);
    const tags = await this.existingTags(req, srcState, source);
    const target = {
      state: srcState,
      resource: `${ARN}${source.bucket}/${source.key}`,
      query: versionQuery(source.versionId),
      tags,
      objectAcl,
    };
    this.decide(req, target, action);
  }

  /**
   * The object's own ACL when one of `actions` is decided by it and the caller is not the
   * bucket owner (who may read its bucket's objects and their ACLs anyway).
   */
  private async objectAclFor(
    req: AccessRequest,
    state: BucketState,
    object: { bucket: string; key: string; versionId?: string | undefined },
    actions: readonly string[],
  ): Promise<BucketAcl | 'missing' | undefined> {
    if (!actions.some(decidedByObjectAcl)) return undefined;
    if (!req.anonymous && (state.acl.Owner === req.account.access || isAdmin(req))) return undefined;
    const { bucket, key, versionId } = object;
    return lookupObjectAcl(
      req.backend,
      req.ctx,
      versionId === undefined ? { bucket, key } : { bucket, key, versionId },
    );
  }

  /** A missing object: the handler answers 404 to a caller who may list the bucket; others get AccessDenied. */
  private refuseUnlisted(req: AccessRequest, state: BucketState, key: string, bucket = req.bucket): void {
    const target = { state, resource: `${ARN}${bucket}`, query: new URLSearchParams({ prefix: key }) };
    this.decide(req, target, 's3:ListBucket');
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

  /**
   * The bucket policy's word on one action: 'deny', 'allow' (not for callers outside the owner's
   * account under RestrictPublicBuckets with a public policy: 'none' then) or 'none'.
   */
  private policyDecision(req: AccessRequest, target: Target, action: string): 'allow' | 'deny' | 'none' {
    const { state } = target;
    if (!state.policy) return 'none';
    const access = req.anonymous ? '' : req.account.access;
    const decision = evaluatePolicy(state.policy, policyRequest(req, target, action));
    if (decision !== 'allow') return decision;
    // RestrictPublicBuckets: a public policy admits nobody from outside the owner's account.
    const owner = access !== '' && state.acl.Owner === access;
    const restricted =
      state.publicAccessBlock?.RestrictPublicBuckets === true && !owner && policyIsPublic(state.policy);
    return restricted ? 'none' : 'allow';
  }

  /**
   * A write's option (its ACL, its tags; write-options.ts): an explicit Deny refuses it; the
   * bucket owner and a policy Allow admit it; a caller the bucket ACL lets write will own the
   * object it writes, and so may set its ACL and tags. Nobody else.
   */
  private allowsWriteOption(req: AccessRequest, target: Target, action: string): boolean {
    const decision = this.policyDecision(req, target, action);
    if (decision !== 'none') return decision === 'allow';
    const { state } = target;
    const access = req.anonymous ? '' : req.account.access;
    if (isAdmin(req) || (access !== '' && state.acl.Owner === access)) return true;
    // An ACL header the write's own Allow names in its conditions (policy/conditioned-acl.ts).
    const { policy } = state;
    if (
      action === 's3:PutObjectAcl' &&
      policy &&
      writeAllowCoversAcl(policy, policyRequest(req, target, 's3:PutObject'))
    )
      return true;
    const aclsApply = !this.disableAcl && state.ownership !== 'BucketOwnerEnforced';
    const opts = { ignorePublic: state.publicAccessBlock?.IgnorePublicAcls === true };
    return aclsApply && aclGrants(state.acl, access, 's3:PutObject', opts);
  }

  private allows(req: AccessRequest, target: Target, action: string): boolean {
    const { state } = target;
    const access = req.anonymous ? '' : req.account.access;
    const decision = this.policyDecision(req, target, action);
    const owner = access !== '' && state.acl.Owner === access;
    if (decision === 'deny' && !keepsUnderDeny(action, owner || isAdmin(req))) return false;
    if (isAdmin(req) || decision === 'allow') return true;
    const block = state.publicAccessBlock;
    const aclsApply = !this.disableAcl && state.ownership !== 'BucketOwnerEnforced';
    if (owner) {
      // The owner's own grant decides the bucket ACL's READ and WRITE (an ACL with no grants
      // revokes them); everything else is the owner's.
      const byBucketGrant =
        permissionFor(action) !== undefined && !isAclAccess(action) && !decidedByObjectAcl(action);
      return !aclsApply || !byBucketGrant || aclGrants(state.acl, access, action);
    }
    if (!aclsApply) return false;
    const opts = { ignorePublic: block?.IgnorePublicAcls === true };
    const objectAcl = target.objectAcl;
    if (objectAcl && decidedByObjectAcl(action)) {
      // The object's owner may always read and write its ACL.
      if (isAclAccess(action) && access !== '' && objectAcl.Owner === access) return true;
      return aclGrants(objectAcl, access, action, opts);
    }
    return aclGrants(state.acl, access, action, opts);
  }
}
