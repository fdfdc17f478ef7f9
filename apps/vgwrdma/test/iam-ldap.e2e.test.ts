// The built gateway with the LDAP IAM store (--iam-ldap-*) over the run's shared slapd: the shared
// IAM scenario (admin CLI, SDK, AWS CLI, errors, cache TTL), the accounts as real LDAP entries,
// and LDAPS — trusted through NODE_EXTRA_CA_CERTS, refused without it, or --iam-ldap-tls-skip-verify.
import { accountFlags, killAllChildren, slapdUnavailable } from '@vgwrdma/test-kit';
import { Client } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminOnStore, iamStoreScenario, startOnStore } from './helpers/iam-store-scenario.js';
import { ldapFlags, ownLdapOu } from './helpers/ldap-directory.js';

const skip = slapdUnavailable();
if (skip !== undefined) console.warn(`LDAP IAM e2e tests skipped: ${skip}`);

/** An ou of its own under the shared slapd's test base, and the flags for it. */
async function ldapStore(url?: string) {
  const { slapd, base } = await ownLdapOu('e2e');
  return {
    slapd,
    base,
    args: ldapFlags({ url: url ?? slapd.url, bindDn: slapd.rootDn, queryBase: base }),
    // The bind password travels in the environment, as an operator should pass it.
    env: { VGW_IAM_LDAP_BIND_PASS: slapd.rootPassword },
    secrets: [slapd.rootPassword],
  };
}

describe.skipIf(skip !== undefined)('vgwrdma with --iam-ldap-url', () => {
  iamStoreScenario('LDAP', () => ldapStore());

  describe('the directory and TLS', { timeout: 60_000 }, () => {
    let store: Awaited<ReturnType<typeof ldapStore>>;
    beforeAll(async () => {
      store = await ldapStore();
    });
    afterAll(() => killAllChildren());

    it('keeps an account made through the admin API as an LDAP entry', async () => {
      const dana = { access: 'dana', secret: 'dana-secret', role: 'userplus' } as const;
      await adminOnStore(store, 'create-user', ...accountFlags(dana), '-ui', '42', '-gi', '7');
      const client = new Client({ url: store.slapd.url });
      await client.bind(store.slapd.rootDn, store.slapd.rootPassword);
      const { searchEntries } = await client.search(store.base, { filter: '(uid=dana)' });
      await client.unbind();
      expect(searchEntries).toHaveLength(1);
      expect(searchEntries[0]).toMatchObject({
        dn: `uid=dana,${store.base}`,
        userPassword: 'dana-secret',
        employeeType: 'userplus',
        uidNumber: '42',
        gidNumber: '7',
      });
    });

    it('stops with the bind error, and without the password, when the password is wrong', async () => {
      const r = await startOnStore({ ...store, env: { VGW_IAM_LDAP_BIND_PASS: 'not-the-bind-password' } });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/cannot bind to ldap:\/\/127\.0\.0\.1:\d+ as cn=admin/);
      expect(`${r.stdout}${r.stderr}`).not.toContain('not-the-bind-password');
    });

    it('LDAPS: trusts the CA from NODE_EXTRA_CA_CERTS, refuses an unknown one, or skips verification', async () => {
      const tls = await ldapStore(store.slapd.ldapsUrl);
      const refused = await startOnStore(tls);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/cannot bind to ldaps:.*(certificate|self.signed|issuer)/i);
      for (const [extra, env] of [
        [[], { ...tls.env, NODE_EXTRA_CA_CERTS: tls.slapd.caFile }],
        [['--iam-ldap-tls-skip-verify'], tls.env],
      ] as const) {
        await adminOnStore({ args: [...tls.args, ...extra], env }, 'list-users');
      }
    });
  });
});
