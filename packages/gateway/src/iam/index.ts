// Accounts: the root account plus versitygw-compatible users.json, and the admin API over them.
export { adminUserHandlers } from './admin-api.js';
export { adminBucketHandlers, singleUserHandlers } from './admin-buckets.js';
export { type IamAccountUpdate, IamStore, type IamStoreOptions } from './iam-store.js';
export { type IamAccount, ROLES, readUsers, USERS_FILE, usersPath, writeUsers } from './users-file.js';
