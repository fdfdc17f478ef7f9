// Authorization: bucket ACLs, bucket policies, ownership controls and public access, behind one
// Authorizer the router calls once per request.
export { aclGrants, aclIsPublic, permissionFor } from './acl/acl-permissions.js';
export { grantsFromHeaders, hasGrantHeaders } from './acl/grant-headers.js';
export { type AccessRequest, Authorizer, type AuthorizerOptions, type AuthzOutcome } from './authorizer.js';
export { type BucketState, BucketStateCache, type BucketStateCacheOptions } from './bucket-state.js';
