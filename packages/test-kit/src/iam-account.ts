// One account record the way the IAM stores keep it (a users.json `accessAccounts` entry): a plain
// `user` with ids 0, its secret derived from the access key unless one is given.

export function iamAccount(access: string, secret = `${access}-secret`) {
  return { access, secret, role: 'user' as const, userID: 0, groupID: 0, projectID: 0 };
}
