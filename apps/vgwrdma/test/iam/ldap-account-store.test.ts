// LdapAccountStore against a real OpenLDAP slapd (the run's shared one): accounts are entries
// with the configured classes and attributes, every verb maps LDAP's answers onto the admin API's
// errors, and access keys full of filter and DN syntax stay literal values (no injection).
import { type Slapd, slapdUnavailable } from '@vgwrdma/test-kit';
import { Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LdapAccountStore, type LdapStoreOptions } from '../../src/iam/ldap-account-store.js';
import { LDAP_ATTRIBUTES, LDAP_OBJECT_CLASSES, ownLdapOu } from '../helpers/ldap-directory.js';

const skip = slapdUnavailable();
if (skip !== undefined) console.warn(`LDAP IAM store tests skipped: ${skip}`);

const account = (access: string, extra: Partial<{ secret: string; userID: number }> = {}) => ({
  access,
  secret: extra.secret ?? `${access}-secret`,
  role: 'user' as const,
  userID: extra.userID ?? 0,
  groupID: 0,
  projectID: 0,
});

const errorCode = (p: Promise<unknown>) =>
  p.then(
    () => '',
    (e: { code?: string; message?: string }) => e.code ?? e.message ?? 'Error',
  );

describe.skipIf(skip !== undefined)('LdapAccountStore (slapd)', () => {
  let slapd: Slapd;
  let admin: Client;
  let base: string;
  let opts: LdapStoreOptions;
  let store: LdapAccountStore;

  beforeAll(async () => {
    ({ slapd, base } = await ownLdapOu('unit'));
    admin = new Client({ url: slapd.url });
    await admin.bind(slapd.rootDn, slapd.rootPassword);
    opts = {
      url: slapd.url,
      bindDn: slapd.rootDn,
      bindPassword: slapd.rootPassword,
      queryBase: base,
      objectClasses: [...LDAP_OBJECT_CLASSES],
      attributes: { ...LDAP_ATTRIBUTES, projectId: 'departmentNumber' },
    };
    store = await LdapAccountStore.open(opts);
  });
  afterAll(async () => {
    await store?.close();
    await admin?.unbind();
  });

  it('creates an entry with the configured classes and attributes, and reads it back', async () => {
    await store.create({ ...account('alice'), role: 'userplus', userID: 1001, groupID: 2002, projectID: 7 });
    const { searchEntries } = await admin.search(base, { filter: '(uid=alice)' });
    expect(searchEntries).toHaveLength(1);
    const e = searchEntries[0] as Record<string, unknown>;
    expect(e.dn).toBe(`uid=alice,${base}`);
    expect(e.objectClass).toEqual(['top', 'account', 'extensibleObject']);
    expect(e).toMatchObject({
      userPassword: 'alice-secret',
      employeeType: 'userplus',
      uidNumber: '1001',
      gidNumber: '2002',
      departmentNumber: '7',
    });
    expect(await store.get('alice')).toEqual({
      access: 'alice',
      secret: 'alice-secret',
      role: 'userplus',
      userID: 1001,
      groupID: 2002,
      projectID: 7,
    });
    expect(await store.get('nobody')).toBeUndefined();
  });

  it('refuses a second account with the same access key', async () => {
    await store.create(account('dup'));
    expect(await errorCode(store.create(account('dup')))).toBe('XAdminUserExists');
  });

  it('updates only the fields given, and answers XAdminUserNotFound for unknown keys', async () => {
    await store.create(account('bob', { userID: 5 }));
    await store.update('bob', { secret: 'new-secret', role: 'admin' });
    expect(await store.get('bob')).toMatchObject({ secret: 'new-secret', role: 'admin', userID: 5 });
    await store.update('bob', { userID: 6 });
    expect(await store.get('bob')).toMatchObject({ secret: 'new-secret', userID: 6 });
    expect(await errorCode(store.update('ghost', { secret: 'x' }))).toBe('XAdminUserNotFound');
    expect(await errorCode(store.update('ghost', {}))).toBe('XAdminUserNotFound');
  });

  it('deletes the entry', async () => {
    await store.create(account('carol'));
    await store.delete('carol');
    expect(await store.get('carol')).toBeUndefined();
    expect((await admin.search(base, { filter: '(uid=carol)' })).searchEntries).toHaveLength(0);
    expect(await errorCode(store.delete('carol'))).toBe('XAdminUserNotFound');
  });

  it('lists the accounts under the base, sorted', async () => {
    const listed = (await store.list()).map((a) => a.access);
    expect(listed).toEqual([...listed].sort());
    expect(listed).toEqual(expect.arrayContaining(['alice', 'bob', 'dup']));
    expect(listed).not.toContain('carol');
  });

  it('treats filter syntax in an access key as a literal (no LDAP filter injection)', async () => {
    // Would match every account if the value reached the filter unescaped.
    expect(await store.get('*')).toBeUndefined();
    expect(await store.get('alice)(uid=*')).toBeUndefined();
    expect(await store.get('*)(|(uid=*')).toBeUndefined();
    expect(await store.get('ali*')).toBeUndefined();
    const hostile = 'x*)(uid=*\\00';
    await store.create(account(hostile));
    expect((await store.get(hostile))?.secret).toBe(`${hostile}-secret`);
    expect(await errorCode(store.create(account('alice)(uid=*')))).toBe('');
    expect((await store.get('alice'))?.secret).toBe('alice-secret');
    await store.delete('alice)(uid=*');
    expect(await store.get('alice')).toBeDefined();
  });

  it('escapes DN syntax in an access key (commas, plus, quotes, leading #)', async () => {
    for (const key of ['a,ou=evil', 'b+cn=x', '"quoted"', '#hash', ' spaced ']) {
      await store.create(account(key));
      expect((await store.get(key))?.access).toBe(key);
    }
    // None escaped out of the base: every entry is a direct child of it.
    const { searchEntries } = await admin.search(base, { scope: 'one', filter: '(uid=*)' });
    expect(searchEntries.length).toBeGreaterThanOrEqual(5);
  });

  it('tells access keys apart by case even where uid matching ignores it', async () => {
    await store.create(account('CaseKey'));
    expect(await store.get('casekey')).toBeUndefined();
    expect((await store.get('CaseKey'))?.access).toBe('CaseKey');
  });

  it('stops at open with the server answer, and without the password, when the bind fails', async () => {
    const secret = 'definitely-wrong-password';
    const err = await LdapAccountStore.open({ ...opts, bindPassword: secret }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/cannot bind to ldap:\/\/127\.0\.0\.1:\d+ as cn=admin/);
    expect(err?.message).toMatch(/Invalid credentials|0x31/i);
    expect(err?.message).not.toContain(secret);
    expect(err).toMatchObject({ name: 'AccountStoreError', code: 'VGW_ERR_IAM_STORE_UNREADABLE' });
  });

  it('refuses attribute names that could carry filter syntax', async () => {
    const bad = { ...opts, attributes: { ...opts.attributes, access: 'uid)(cn=*' } };
    await expect(LdapAccountStore.open(bad)).rejects.toThrow(/not an LDAP attribute or class name/);
    await expect(LdapAccountStore.open(bad)).rejects.toMatchObject({ code: 'VGW_ERR_IAM_STORE_BAD_ENTRY' });
  });

  it('speaks LDAPS: verifies the certificate, or skips verification when told', async () => {
    const tls = { ...opts, url: slapd.ldapsUrl };
    await expect(LdapAccountStore.open(tls)).rejects.toThrow(/certificate|self.signed|issuer/i);
    const insecure = await LdapAccountStore.open({ ...tls, tlsSkipVerify: true });
    try {
      expect((await insecure.get('bob'))?.secret).toBe('new-secret');
    } finally {
      await insecure.close();
    }
  });
});
