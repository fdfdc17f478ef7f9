// Opens the account store the configuration names and the IamStore over it: users.json with
// --iam-dir, LDAP or the S3 bucket (behind versitygw's TTL cache unless --iam-cache-disable), or
// the root account alone.
import { type AccountStore, CachedAccountStore, IamStore } from '@vgwrdma/gateway';
import type { IamServiceConfig } from '../iam-config.js';
import { LdapAccountStore } from './ldap-account-store.js';
import { S3AccountStore } from './s3-account-store.js';

export interface IamOpenConfig {
  readonly access: string;
  readonly secret: string;
  readonly iamDir?: string;
  readonly iamService?: IamServiceConfig;
}

async function openRemote(service: IamServiceConfig): Promise<AccountStore> {
  const store =
    service.kind === 'ldap'
      ? await LdapAccountStore.open(service.ldap)
      : await S3AccountStore.open(service.s3);
  return service.cache === undefined ? store : new CachedAccountStore(store, service.cache);
}

export async function openIam(config: IamOpenConfig): Promise<IamStore> {
  const root = { access: config.access, secret: config.secret };
  if (config.iamService !== undefined)
    return IamStore.open({ root, store: await openRemote(config.iamService) });
  return IamStore.open({ root, ...(config.iamDir === undefined ? {} : { dir: config.iamDir }) });
}
