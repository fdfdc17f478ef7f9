// `vgwrdma admin` (the built bin) against the built gateway with --iam-dir: every verb, with the
// table and the --json output, checked against users.json and against what the accounts can then
// do with the AWS SDK; and the errors an operator meets (wrong key, a non-admin account, a gateway
// that is not there, unknown users, bad flags), with their exit status.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, ListBucketsCommand } from '@aws-sdk/client-s3';
import {
  type AdminCli,
  accountFlags,
  adminCli,
  type IamUser,
  ROOT_CREDENTIALS,
  runMain,
  type Scene,
} from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect } from 'vitest';

const ALICE: IamUser = {
  access: 'alice',
  secret: 'alice-secret',
  role: 'userplus',
  displayName: 'Alice A.',
  email: 'alice@example.org',
};

/** An --iam-dir with no users yet: the admin command makes them. */
const test = sceneTest({ iam: true });
let scene: Scene;
/** `vgwrdma admin -a root -s … -er <gateway> <args>`. */
let admin: AdminCli;
test.beforeAll(async ({ scene: started }) => {
  scene = started;
  admin = adminCli(scene.url);
});

const client = (access: string, secret: string) => scene.client({ access, secret });

async function usersFile(): Promise<Record<string, Record<string, unknown>>> {
  const doc = JSON.parse(await readFile(join(scene.iamDir as string, 'users.json'), 'utf8')) as {
    accessAccounts: Record<string, Record<string, unknown>>;
  };
  return doc.accessAccounts;
}

const errorName = (p: Promise<unknown>) =>
  p.then(
    () => '',
    (e: { name?: string }) => e.name ?? 'Error',
  );

describe('vgwrdma admin', () => {
  test('create-user writes the account, which can then sign in', async () => {
    const made = await admin('create-user', ...accountFlags(ALICE), '-ui', '1001');
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toBe('created user alice\n');
    const stored = (await usersFile()).alice;
    expect(stored).toMatchObject({
      secret: 'alice-secret',
      role: 'userplus',
      userID: 1001,
      displayName: 'Alice A.',
      email: 'alice@example.org',
    });
    // userplus may create buckets: the account is live without a restart.
    await client('alice', 'alice-secret').send(new CreateBucketCommand({ Bucket: 'alice-bucket' }));

    const bob = await admin('create-user', '-a', 'bob', '-s', 'bob-secret', '--json');
    expect(bob.code, bob.stderr).toBe(0);
    expect(JSON.parse(bob.stdout)).toEqual({ ok: true, access: 'bob' });
    expect((await usersFile()).bob).toMatchObject({ role: 'user', userID: 0 });
  });

  test('list-users prints a table, or JSON, and never the secrets', async () => {
    const table = await admin('list-users');
    expect(table.code, table.stderr).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]?.split(/\s{2,}/)).toEqual([
      'ACCOUNT',
      'ROLE',
      'USER ID',
      'GROUP ID',
      'PROJECT ID',
      'DISPLAY NAME',
      'EMAIL',
    ]);
    const alice = lines.find((l) => l.startsWith('alice '));
    expect(alice?.split(/\s{2,}/)).toEqual([
      'alice',
      'userplus',
      '1001',
      '0',
      '0',
      'Alice A.',
      'alice@example.org',
    ]);
    expect(lines.find((l) => l.startsWith('bob '))?.split(/\s{2,}/)).toEqual(['bob', 'user', '0', '0', '0']);
    expect(table.stdout).not.toContain('secret');

    const json = await admin('--json', 'list-users');
    expect(json.code, json.stderr).toBe(0);
    const users = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(users.find((u) => u.access === 'alice')).toEqual({
      access: 'alice',
      role: 'userplus',
      userID: 1001,
      groupID: 0,
      projectID: 0,
      displayName: 'Alice A.',
      email: 'alice@example.org',
    });
    expect(json.stdout).not.toContain('alice-secret');
  });

  test('update-user changes only the fields given', async () => {
    const r = await admin(
      'update-user',
      '-a',
      'bob',
      '--secret',
      'bob-new-secret',
      '--role',
      'userplus',
      '--email',
      'bob@example.org',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('updated user bob\n');
    expect((await usersFile()).bob).toMatchObject({
      secret: 'bob-new-secret',
      role: 'userplus',
      email: 'bob@example.org',
      userID: 0,
    });
    expect(await errorName(client('bob', 'bob-secret').send(new ListBucketsCommand({})))).toBe(
      'SignatureDoesNotMatch',
    );
    await client('bob', 'bob-new-secret').send(new ListBucketsCommand({}));
  });

  test('list-buckets shows owners, and change-bucket-owner moves a bucket', async () => {
    const before = await admin('list-buckets', '--json');
    expect(before.code, before.stderr).toBe(0);
    expect(JSON.parse(before.stdout)).toContainEqual(
      expect.objectContaining({ name: 'alice-bucket', owner: 'alice' }),
    );
    const moved = await admin('change-bucket-owner', '--bucket', 'alice-bucket', '--owner', 'bob');
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toBe('bucket alice-bucket now belongs to bob\n');
    const table = await admin('list-buckets');
    expect(table.stdout.split('\n')[0]?.split(/\s{2,}/)).toEqual(['BUCKET', 'OWNER', 'CREATED']);
    const row = table.stdout.split('\n').find((l) => l.startsWith('alice-bucket '));
    expect(row?.split(/\s{2,}/).slice(0, 2)).toEqual(['alice-bucket', 'bob']);
    const listed = await client('bob', 'bob-new-secret').send(new ListBucketsCommand({}));
    expect(listed.Buckets?.map((b) => b.Name)).toContain('alice-bucket');
  });

  test('delete-user removes the account: its key stops working', async () => {
    const r = await admin('delete-user', '--access', 'bob');
    expect(r.code, r.stderr).toBe(0);
    expect('bob' in (await usersFile())).toBe(false);
    expect(await errorName(client('bob', 'bob-new-secret').send(new ListBucketsCommand({})))).toBe(
      'InvalidAccessKeyId',
    );
  });

  test('reads the admin keys and endpoint from the environment', async () => {
    const r = await runMain(['admin', 'list-users', '--json'], {
      ADMIN_ACCESS_KEY_ID: ROOT_CREDENTIALS.access,
      ADMIN_SECRET_ACCESS_KEY: ROOT_CREDENTIALS.secret,
      ADMIN_ENDPOINT_URL: scene.url,
    });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { access: string }[]).map((u) => u.access)).toContain('alice');
  });
});

describe('vgwrdma admin errors', () => {
  test('a refused request prints the S3 error code and exits 1', async () => {
    const wrongKey = await adminCli(scene.url, { ...ROOT_CREDENTIALS, secret: 'not-the-secret' })(
      'list-users',
    );
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('(HTTP 403) SignatureDoesNotMatch');
    expect(wrongKey.stdout).toBe('');

    // alice is a userplus account, not an admin.
    const notAdmin = await adminCli(scene.url, ALICE)('list-users');
    expect(notAdmin.code).toBe(1);
    expect(notAdmin.stderr).toMatch(/list-users refused by .*\(HTTP 403\) XAdminAccessDenied/);

    const nobody = await admin('delete-user', '-a', 'nobody');
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toContain('XAdminUserNotFound');

    const dup = await admin('create-user', '-a', 'alice', '-s', 'other-secret');
    expect(dup.code).toBe(1);
    expect(dup.stderr).toMatch(/\(HTTP 409\) XAdminUserExists/);

    const noBucket = await admin('change-bucket-owner', '-b', 'no-such-bucket', '-o', 'alice');
    expect(noBucket.code).toBe(1);
    expect(noBucket.stderr).toContain('NoSuchBucket');
  });

  test('a gateway that is not there is a clear error, exit 1', async () => {
    const r = await runMain([
      'admin',
      '-a',
      'k',
      '-s',
      's',
      '--endpoint-url',
      'http://127.0.0.1:1',
      'list-users',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot reach http://127.0.0.1:1: ECONNREFUSED');
    expect(r.stderr).toContain('--endpoint-url');
  });

  test('bad command lines name the flag and exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['create-user', '-a', 'x'], /create-user needs --secret \(-s\)/],
      [['create-user', '-a', 'x', '-s', 'y', '--role', 'boss'], /invalid --role \(-r\) "boss"/],
      [
        ['create-user', '-a', 'x', '-s', 'y', '--user-id', 'seven'],
        /invalid --user-id \(--ui\) "seven":\s+✖ must be a whole number/,
      ],
      [['change-bucket-owner', '-b', 'b'], /change-bucket-owner needs --owner \(-o\)/],
      [['list-users', '--bogus'], /unknown flag --bogus/],
      [['frob'], /unknown admin command "frob"/],
      [[], /no admin command given/],
    ];
    for (const [args, message] of cases) {
      const r = await admin(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(message);
    }
    const noKeys = await runMain(['admin', 'list-users']);
    expect(noKeys.code).toBe(2);
    expect(noKeys.stderr).toContain('ADMIN_ACCESS_KEY_ID');
    const badUrl = await runMain(['admin', '-a', 'k', '-s', 's', '--endpoint-url', 'ftp://x', 'list-users']);
    expect(badUrl.code).toBe(2);
    expect(badUrl.stderr).toContain('invalid --endpoint-url (--er) "ftp://x"');
  });

  test('--help lists the commands, and each command its flags', async () => {
    const top = await runMain(['admin', '--help']);
    expect(top.code).toBe(0);
    for (const verb of [
      'create-user',
      'update-user',
      'delete-user',
      'list-users',
      'list-buckets',
      'change-bucket-owner',
    ])
      expect(top.stdout).toContain(verb);
    const create = await runMain(['admin', 'create-user', '--help']);
    expect(create.code).toBe(0);
    expect(create.stdout).toContain('--display-name');
    expect(create.stdout).toContain('Required: --access, --secret');
  });
});
