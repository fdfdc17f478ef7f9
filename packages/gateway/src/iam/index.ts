// Accounts: the root account plus an AccountStore (versitygw-compatible users.json, or one the
// embedder brings), an optional TTL cache in front, and the admin API over them.
export {
  type AccountCacheOptions,
  CachedAccountStore,
} from './account-cache.js';
export {
  type AccountStore,
  AccountsDocumentStore,
  type AccountsEdit,
  accountEdits,
  applyUpdate,
  type IamAccountUpdate,
} from './account-store.js';
export { adminUserHandlers } from './admin-api.js';
export { adminBucketHandlers, singleUserHandlers } from './admin-buckets.js';
export { IamStore, type IamStoreOptions } from './iam-store.js';
export {
  type IamAccount,
  isRole,
  parseUsersDocument,
  ROLES,
  readUsers,
  serializeUsers,
  USERS_FILE,
  usersPath,
  writeUsers,
} from './users-file.js';
export { UsersFileStore } from './users-file-store.js';
