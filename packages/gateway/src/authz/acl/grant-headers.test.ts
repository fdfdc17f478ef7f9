// x-amz-grant-* parsing and what the resulting ACL lets each kind of caller do.
import { describe, expect, it } from 'vitest';
import { aclGrants } from './acl-permissions.js';
import { ALL_USERS, AUTHENTICATED_USERS, grantsFromHeaders } from './grant-headers.js';

describe('grantsFromHeaders', () => {
  it('reads id and uri grantees from every grant header', () => {
    const grants = grantsFromHeaders({
      'x-amz-grant-read': `id="bob", uri="${ALL_USERS}"`,
      'x-amz-grant-write-acp': 'id=carol',
    });
    expect(grants).toEqual([
      { Permission: 'READ', Access: 'bob', Type: 'CanonicalUser' },
      { Permission: 'READ', Access: ALL_USERS, Type: 'Group' },
      { Permission: 'WRITE_ACP', Access: 'carol', Type: 'CanonicalUser' },
    ]);
  });

  it.each(['emailAddress="a@b.c"', 'uri="http://example.com/group"', 'nonsense', 'id=""'])(
    'refuses %s with InvalidArgument',
    (value) => {
      expect(() => grantsFromHeaders({ 'x-amz-grant-read': value })).toThrow(
        expect.objectContaining({ code: 'InvalidArgument' }),
      );
    },
  );
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
});
