// x-amz-grant-* parsing, canned ACLs, and what the resulting ACL lets each kind of caller do.
import { describe, expect, it } from 'vitest';
import { aclGrants, aclIsPublic, effectiveGrantees } from '../../../src/authz/acl/acl-permissions.js';
import { cannedAcl } from '../../../src/authz/acl/canned-acl.js';
import { ALL_USERS, AUTHENTICATED_USERS, grantsFromHeaders } from '../../../src/authz/acl/grant-headers.js';

describe('grantsFromHeaders', () => {
  it('reads id, uri and emailAddress grantees from every grant header', () => {
    const grants = grantsFromHeaders({
      'x-amz-grant-read': `id="bob", uri="${ALL_USERS}"`,
      'x-amz-grant-write-acp': 'emailAddress="carol@example.com"',
    });
    expect(grants).toEqual([
      { kind: 'id', value: 'bob', permission: 'READ' },
      { kind: 'uri', value: ALL_USERS, permission: 'READ' },
      { kind: 'email', value: 'carol@example.com', permission: 'WRITE_ACP' },
    ]);
  });

  it.each(['uri="http://example.com/group"', 'nonsense', 'id=""'])(
    'refuses %s with InvalidArgument',
    (value) => {
      expect(() => grantsFromHeaders({ 'x-amz-grant-read': value })).toThrow(
        expect.objectContaining({ code: 'InvalidArgument' }),
      );
    },
  );
});

describe('cannedAcl', () => {
  it('lists the owner grant itself, and the bucket owner for bucket-owner-* on an object', () => {
    expect(cannedAcl('bucket-owner-read', 'bob', 'alice').Grantees).toEqual([
      { Permission: 'FULL_CONTROL', Access: 'bob', Type: 'CanonicalUser' },
      { Permission: 'READ', Access: 'alice', Type: 'CanonicalUser' },
    ]);
    // Written by the bucket owner, it is just private.
    expect(cannedAcl('bucket-owner-full-control', 'alice', 'alice').Grantees).toHaveLength(1);
    for (const value of ['aws-exec-read', 'log-delivery-write', 'everyone-please'])
      expect(() => cannedAcl(value, 'alice')).toThrow(expect.objectContaining({ code: 'InvalidArgument' }));
  });
});

describe('aclGrants', () => {
  const acl = {
    Owner: 'alice',
    Grantees: [
      { Permission: 'WRITE' as const, Access: 'bob', Type: 'CanonicalUser' as const },
      { Permission: 'READ' as const, Access: AUTHENTICATED_USERS, Type: 'Group' as const },
    ],
  };
  it('maps actions to permissions per grantee kind', () => {
    expect(aclGrants(acl, 'bob', 's3:PutObject')).toBe(true);
    expect(aclGrants(acl, 'bob', 's3:GetObject')).toBe(true); // as an authenticated user
    expect(aclGrants(acl, '', 's3:GetObject')).toBe(false); // anonymous is not authenticated
    expect(aclGrants(acl, 'carol', 's3:DeleteObject')).toBe(false);
    expect(aclGrants(acl, 'bob', 's3:PutBucketPolicy')).toBe(false); // owner-only configuration
  });

  it('gives the owner FULL_CONTROL only where the ACL is not exact', () => {
    expect(aclGrants(acl, 'alice', 's3:PutObject')).toBe(true);
    expect(aclGrants({ ...acl, Exact: true }, 'alice', 's3:PutObject')).toBe(false);
    expect(effectiveGrantees({ Owner: 'alice', Grantees: [], Exact: true })).toEqual([]);
  });

  it('ignores group grants under IgnorePublicAcls, and reads versitygw’s all-users group', () => {
    expect(aclGrants(acl, 'carol', 's3:GetObject', { ignorePublic: true })).toBe(false);
    const legacy = {
      Owner: 'alice',
      Grantees: [{ Permission: 'READ' as const, Access: 'all-users', Type: 'Group' as const }],
    };
    expect(aclGrants(legacy, '', 's3:ListBucket')).toBe(true);
    expect(aclIsPublic(legacy)).toBe(true);
    expect(aclIsPublic(cannedAcl('private', 'alice'))).toBe(false);
  });
});
