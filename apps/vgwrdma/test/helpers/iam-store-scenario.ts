// The end-to-end story every IAM store must tell, run by iam-ldap.e2e.test.ts and
// iam-s3.e2e.test.ts with their store's flags: three built gateways share one store — A caches
// accounts for 600 s, B for 2 s, C not at all (--iam-cache-disable); each has its own posix root
// (the accounts are shared, the buckets are not). Accounts made with
// `vgwrdma admin` sign requests with the AWS SDK and the AWS CLI; a wrong secret answers
// SignatureDoesNotMatch, an unknown key InvalidAccessKeyId; a changed or deleted account stops
// working at once where it was changed and on C, within B's TTL on B, and is still served by A's
// cache (which shows the cache is really there).
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListBucketsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import {
  type AppProcess,
  accountFlags,
  adminCli,
  type Credentials,
  type Finished,
  type IamUser,
  loopbackArgs,
  makeTempDir,
  removeDir,
  runMain,
  s3Client,
  startGateway,
} from '@vgwrdma/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AWS_BIN, awsCli } from './aws-cli.js';

export interface StoreUnderTest {
  /** Global flags selecting the store (secrets go in `env`). */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The store's own secrets (bind password, bucket secret key): never in the gateway's output. */
  readonly secrets: readonly string[];
}

/** The flags and environment that select a store (a StoreUnderTest, or a variant of one). */
export type StoreFlags = Pick<StoreUnderTest, 'args' | 'env'>;

/**
 * Starts a gateway on the store, runs `vgwrdma admin <args>` against it as root, expects exit 0,
 * and stops the gateway: how a test puts something in the store and then reads the store itself.
 */
export async function adminOnStore(store: StoreFlags, ...args: string[]): Promise<Finished> {
  const gw = await startGateway({ globalArgs: store.args, env: store.env });
  try {
    const done = await adminCli(gw.url)(...args);
    expect(done.code, done.stderr).toBe(0);
    return done;
  } finally {
    await gw.stop();
  }
}

/** `vgwrdma <loopback flags> <store flags> posix /tmp` run to its exit: a start the store stops. */
export function startOnStore(store: StoreFlags, root?: Credentials): Promise<Finished> {
  return runMain([...loopbackArgs(root), ...store.args, 'posix', '/tmp'], store.env);
}

const ALICE: IamUser = { access: 'alice', secret: 'alice-secret', role: 'userplus' };

const errorName = (p: Promise<unknown>) =>
  p.then(
    () => '',
    (e: { name?: string }) => e.name ?? 'Error',
  );

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function iamStoreScenario(name: string, store: () => Promise<StoreUnderTest>): void {
  describe(`${name}: accounts made with vgwrdma admin`, { timeout: 120_000 }, () => {
    const gateways: (AppProcess & { root: string })[] = [];
    const clients: ReturnType<typeof s3Client>[] = [];
    let a: AppProcess;
    let b: AppProcess;
    let c: AppProcess;
    let work: string;
    let secrets: readonly string[] = [];

    const client = (gw: AppProcess, access: string, secret: string) => {
      const made = s3Client(gw.url, { access, secret });
      clients.push(made);
      return made;
    };
    const admin = (gw: AppProcess, ...args: string[]) => adminCli(gw.url)(...args);
    const canList = (gw: AppProcess, access: string, secret: string) =>
      errorName(client(gw, access, secret).send(new ListBucketsCommand({})));

    beforeAll(async () => {
      work = await makeTempDir('vgwrdma-iam-e2e-');
      const s = await store();
      secrets = s.secrets;
      for (const cache of [['--iam-cache-ttl', '600'], ['--iam-cache-ttl', '2'], ['--iam-cache-disable']]) {
        gateways.push(await startGateway({ globalArgs: [...s.args, ...cache], env: s.env }));
      }
      const [ga, gb, gc] = gateways;
      if (!ga || !gb || !gc) throw new Error('three gateways expected');
      [a, b, c] = [ga, gb, gc];
    });
    afterAll(async () => {
      for (const cl of clients) cl.destroy();
      // Only its own gateways: the file may have started others (the S3 upstream) it still needs.
      for (const gw of gateways) await gw.stop();
      for (const gw of gateways) await removeDir(gw.root);
      if (work) await removeDir(work);
    });

    it('names the store in the banner and never prints its secret', () => {
      expect(secrets.length).toBeGreaterThan(0);
      for (const gw of gateways) {
        expect(gw.stdout()).toMatch(/^\s*iam:\s+(ldap|s3) /m);
        for (const secret of secrets) expect(`${gw.stdout()}${gw.stderr()}`).not.toContain(secret);
      }
    });

    it('create-user makes an account that signs with the SDK on every gateway', async () => {
      const made = await admin(a, 'create-user', ...accountFlags(ALICE));
      expect(made.code, made.stderr).toBe(0);
      const listed = await admin(b, '--json', 'list-users');
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout)).toEqual(
        expect.arrayContaining([expect.objectContaining({ access: 'alice', role: 'userplus' })]),
      );
      const alice = client(a, 'alice', 'alice-secret');
      await alice.send(new CreateBucketCommand({ Bucket: 'alice-bucket' }));
      await alice.send(
        new PutObjectCommand({ Bucket: 'alice-bucket', Key: 'hello.txt', Body: 'hi from alice' }),
      );
      for (const gw of [b, c]) expect(await canList(gw, 'alice', 'alice-secret')).toBe('');
      const got = await alice.send(new GetObjectCommand({ Bucket: 'alice-bucket', Key: 'hello.txt' }));
      expect(await got.Body?.transformToString()).toBe('hi from alice');
    });

    it('a wrong secret is SignatureDoesNotMatch, an unknown key InvalidAccessKeyId (SDK)', async () => {
      for (const gw of [a, b, c]) {
        expect(await canList(gw, 'alice', 'not-alices-secret')).toBe('SignatureDoesNotMatch');
        expect(await canList(gw, 'mallory', 'whatever')).toBe('InvalidAccessKeyId');
      }
    });

    it.skipIf(AWS_BIN === undefined)(
      'the AWS CLI signs as the account, and gets the same two errors',
      async () => {
        const aliceCli = await awsCli({
          endpoint: a.url,
          access: 'alice',
          secret: 'alice-secret',
          workDir: work,
        });
        const ls = await aliceCli(['s3', 'ls', 's3://alice-bucket']);
        expect(ls.code, `${ls.stdout}\n${ls.stderr}`).toBe(0);
        expect(ls.stdout).toContain('hello.txt');
        const wrong = await awsCli({ endpoint: c.url, access: 'alice', secret: 'wrong', workDir: work });
        const denied = await wrong(['s3api', 'list-buckets']);
        expect(denied.code).not.toBe(0);
        expect(denied.stderr).toContain('SignatureDoesNotMatch');
        const unknown = await awsCli({ endpoint: c.url, access: 'mallory', secret: 'x', workDir: work });
        const refused = await unknown(['s3api', 'list-buckets']);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toContain('InvalidAccessKeyId');
      },
    );

    it('a changed secret or a deleted account stops working within each gateway’s TTL', async () => {
      expect((await admin(c, 'create-user', '--access', 'bob', '--secret', 'bob-old')).code).toBe(0);
      // Warm the caches of A and B.
      for (const gw of [a, b]) expect(await canList(gw, 'bob', 'bob-old')).toBe('');
      const updated = await admin(c, 'update-user', '-a', 'bob', '--secret', 'bob-new');
      expect(updated.code, updated.stderr).toBe(0);
      const changedAt = Date.now();
      expect(await canList(c, 'bob', 'bob-old')).toBe('SignatureDoesNotMatch');
      expect(await canList(c, 'bob', 'bob-new')).toBe('');
      // A still serves its cached copy (600 s TTL)...
      expect(await canList(a, 'bob', 'bob-old')).toBe('');
      // ...B only until its 2 s are up.
      await sleep(Math.max(0, changedAt + 2500 - Date.now()));
      expect(await canList(b, 'bob', 'bob-old')).toBe('SignatureDoesNotMatch');
      expect(await canList(b, 'bob', 'bob-new')).toBe('');

      const deleted = await admin(c, 'delete-user', '--access', 'bob');
      expect(deleted.code, deleted.stderr).toBe(0);
      const deletedAt = Date.now();
      expect(await canList(c, 'bob', 'bob-new')).toBe('InvalidAccessKeyId');
      await sleep(Math.max(0, deletedAt + 2500 - Date.now()));
      expect(await canList(b, 'bob', 'bob-new')).toBe('InvalidAccessKeyId');
      // A's copy is the old secret, still within its TTL: the cache, not the store, answers.
      expect(await canList(a, 'bob', 'bob-old')).toBe('');
    });

    it('refuses a second account with the same key, through the admin CLI', async () => {
      const again = await admin(b, 'create-user', '--access', 'alice', '--secret', 'x');
      expect(again.code).not.toBe(0);
      expect(again.stderr).toMatch(/XAdminUserExists|already exists/);
    });
  });
}
