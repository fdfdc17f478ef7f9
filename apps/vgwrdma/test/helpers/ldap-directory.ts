// The LDAP directory as the IAM tests lay it out: accounts are `account` entries (plus
// extensibleObject for the numeric ids) whose key, secret, role and ids live in the attributes
// below; each test file works in an ou of its own under the shared slapd's test base; and the
// --iam-ldap-* flags that point the gateway at such an ou, built from one table.
import { type Slapd, sharedSlapd } from '@vgwrdma/test-kit';
import { Client } from 'ldapts';

export const LDAP_OBJECT_CLASSES = ['top', 'account', 'extensibleObject'] as const;

/** Which attribute holds which field of an account. */
export const LDAP_ATTRIBUTES = {
  access: 'uid',
  secret: 'userPassword',
  role: 'employeeType',
  userId: 'uidNumber',
  groupId: 'gidNumber',
} as const;

/** The flag that names each attribute. */
const ATTRIBUTE_FLAGS: Readonly<Record<keyof typeof LDAP_ATTRIBUTES, string>> = {
  access: '--iam-ldap-access-atr',
  secret: '--iam-ldap-secret-atr',
  role: '--iam-ldap-role-atr',
  userId: '--iam-ldap-user-id-atr',
  groupId: '--iam-ldap-group-id-atr',
};

export interface LdapFlagValues {
  readonly url: string;
  readonly bindDn: string;
  readonly queryBase: string;
  /** As written on the command line (default: LDAP_OBJECT_CLASSES joined by commas). */
  readonly objectClasses?: string;
}

/** Every --iam-ldap-* flag but the bind password (which belongs in VGW_IAM_LDAP_BIND_PASS). */
export function ldapFlags(values: LdapFlagValues): string[] {
  return [
    '--iam-ldap-url',
    values.url,
    '--iam-ldap-bind-dn',
    values.bindDn,
    '--iam-ldap-query-base',
    values.queryBase,
    '--iam-ldap-object-classes',
    values.objectClasses ?? LDAP_OBJECT_CLASSES.join(','),
    ...Object.entries(ATTRIBUTE_FLAGS).flatMap(([field, flag]) => [
      flag,
      LDAP_ATTRIBUTES[field as keyof typeof LDAP_ATTRIBUTES],
    ]),
  ];
}

/** A fresh ou (`ou=<prefix>-<unique>,<testBase>`) in the shared slapd; returns the slapd and its DN. */
export async function ownLdapOu(prefix: string): Promise<{ slapd: Slapd; base: string }> {
  const slapd = await sharedSlapd();
  const client = new Client({ url: slapd.url });
  await client.bind(slapd.rootDn, slapd.rootPassword);
  try {
    const ou = `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const base = `ou=${ou},${slapd.testBase}`;
    await client.add(base, { objectClass: 'organizationalUnit', ou });
    return { slapd, base };
  } finally {
    await client.unbind();
  }
}
