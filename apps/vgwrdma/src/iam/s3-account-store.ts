// Accounts as one object in an upstream bucket (versitygw's S3 IAM service, --s3-iam-*): the
// object `users.json` holds the same document as --iam-dir's file, so a directory can be copied
// into a bucket and back. Reads remember the object's ETag and ask again with If-None-Match, so an
// unchanged object costs a 304 and no body. Writes are read-modify-write made safe by a
// conditional PUT — If-Match on the ETag that was read, If-None-Match: * when the object did not
// exist — retried from a fresh read when another gateway wrote in between (412/409). Ceph RGW
// (16.x) compares If-Match with the ETag's bare hex and refuses the quoted form RFC 9110 and AWS
// use: a 412 while the object still has the ETag we sent switches this store to the bare form.
// An upstream that ignores the conditions leaves the last writer's document in place (documented
// in docs/security.md).
import { Agent as HttpsAgent } from 'node:https';
import { GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import {
  AccountsDocumentStore,
  type AccountsEdit,
  type IamAccount,
  parseUsersDocument,
  serializeUsers,
  USERS_FILE,
} from '@vgwrdma/gateway';
import { AccountStoreError } from './account-store-error.js';

export interface S3StoreOptions {
  readonly endpoint: string;
  readonly region: string;
  readonly bucket: string;
  readonly access: string;
  readonly secret: string;
  /** https: accept any certificate (versitygw --s3-iam-noverify). */
  readonly noVerify?: boolean;
}

type Users = Map<string, IamAccount>;

interface Snapshot {
  readonly users: Users;
  /** Undefined when the object does not exist. */
  readonly etag: string | undefined;
}

/** Conflicts with other gateways tolerated before an update fails (this one's writes queue up). */
const MAX_WRITE_ATTEMPTS = 16;

function status(err: unknown): number | undefined {
  return err instanceof S3ServiceException ? err.$metadata.httpStatusCode : undefined;
}

export class S3AccountStore extends AccountsDocumentStore {
  private readonly client: S3Client;
  private last: Snapshot | undefined;
  /** Send If-Match without the quotes (learned from the upstream, see the header). */
  private bareIfMatch = false;

  constructor(private readonly opts: S3StoreOptions) {
    super();
    this.client = new S3Client({
      endpoint: opts.endpoint,
      region: opts.region,
      forcePathStyle: true,
      credentials: { accessKeyId: opts.access, secretAccessKey: opts.secret },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
      ...(opts.noVerify === true
        ? { requestHandler: { httpsAgent: new HttpsAgent({ rejectUnauthorized: false }) } }
        : {}),
    });
  }

  /** Opens the store and reads the object once, so a wrong endpoint, key or bucket stops the start. */
  static async open(opts: S3StoreOptions): Promise<S3AccountStore> {
    const store = new S3AccountStore(opts);
    try {
      await store.read();
    } catch (err) {
      store.client.destroy();
      const why = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      throw new AccountStoreError(
        'VGW_ERR_IAM_STORE_UNREADABLE',
        `cannot read s3://${opts.bucket}/${USERS_FILE} at ${opts.endpoint}: ${why}`,
        { cause: err },
      );
    }
    return store;
  }

  get description(): string {
    return `${this.opts.endpoint}/${this.opts.bucket}/${USERS_FILE}`;
  }

  async get(access: string): Promise<IamAccount | undefined> {
    return (await this.read()).users.get(access);
  }

  async list(): Promise<IamAccount[]> {
    return [...(await this.read()).users.values()].sort((x, y) =>
      x.access < y.access ? -1 : x.access > y.access ? 1 : 0,
    );
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  /** The current document: a conditional GET against the last ETag seen. */
  private async read(): Promise<Snapshot> {
    const last = this.last;
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.opts.bucket,
          Key: USERS_FILE,
          ...(last?.etag === undefined ? {} : { IfNoneMatch: last.etag }),
        }),
      );
      const text = (await out.Body?.transformToString('utf8')) ?? '';
      this.last = { users: parseUsersDocument(text), etag: out.ETag };
    } catch (err) {
      const code = status(err);
      if (code === 304 && last) return last;
      if (code !== 404 || (err instanceof S3ServiceException && err.name === 'NoSuchBucket')) throw err;
      this.last = { users: new Map(), etag: undefined };
    }
    return this.last;
  }

  private ifMatch(etag: string): string {
    return this.bareIfMatch ? etag.replace(/^(W\/)?"(.*)"$/, '$2') : etag;
  }

  /** One update (the base queues them); a conflict with another gateway is retried. */
  protected async writeDocument(edit: AccountsEdit): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const snap = await this.read();
      const users: Users = new Map(snap.users);
      edit(users);
      try {
        const out = await this.client.send(
          new PutObjectCommand({
            Bucket: this.opts.bucket,
            Key: USERS_FILE,
            Body: serializeUsers(users),
            ContentType: 'application/json',
            ...(snap.etag === undefined ? { IfNoneMatch: '*' } : { IfMatch: this.ifMatch(snap.etag) }),
          }),
        );
        this.last = { users, etag: out.ETag };
        return;
      } catch (err) {
        const code = status(err);
        // Another writer won the race: start again from what it wrote.
        if ((code === 412 || code === 409) && attempt < MAX_WRITE_ATTEMPTS) {
          this.last = undefined;
          if (code === 412 && snap.etag !== undefined && !this.bareIfMatch) {
            // Unchanged since we read it, yet refused: the upstream wants the bare form.
            if ((await this.read()).etag === snap.etag) this.bareIfMatch = true;
            this.last = undefined;
            continue;
          }
          await new Promise((r) => setTimeout(r, 5 + Math.random() * 20 * attempt));
          continue;
        }
        throw err;
      }
    }
  }
}
