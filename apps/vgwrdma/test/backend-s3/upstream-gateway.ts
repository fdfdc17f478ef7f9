// The upstream for backend-s3's end-to-end tests: a second gateway PROCESS — the built app
// serving the posix backend on a temp directory (test-kit's startGateway). Tests talk to it
// through S3Backend exactly as a proxy gateway would. With BACKEND_S3_TEST_ENDPOINT set (plus
// _ACCESS, _SECRET, optional _REGION), the same suites run against that store instead (a Ceph RGW
// or MinIO: the optional target in docs/deployment.md).
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { makeTempDir, removeDir, startGateway } from '@vgwrdma/test-kit';

export const UPSTREAM_CREDENTIALS = { access: 'upstream-access', secret: 'upstream-secret-key' } as const;

export interface UpstreamGateway {
  readonly endpoint: string;
  readonly access: string;
  readonly secret: string;
  readonly region: string;
  readonly root: string;
  /** A plain SDK client on the upstream (path-style), for set-up such as the meta bucket. */
  readonly client: S3Client;
  stop(): Promise<void>;
}

/** The external store named by BACKEND_S3_TEST_* variables, if any. */
function externalUpstream(): UpstreamGateway | undefined {
  const env = process.env;
  const endpoint = env.BACKEND_S3_TEST_ENDPOINT;
  if (!endpoint) return undefined;
  const access = env.BACKEND_S3_TEST_ACCESS ?? '';
  const secret = env.BACKEND_S3_TEST_SECRET ?? '';
  const region = env.BACKEND_S3_TEST_REGION ?? 'us-east-1';
  const client = new S3Client({
    endpoint,
    region,
    forcePathStyle: true,
    credentials: { accessKeyId: access, secretAccessKey: secret },
  });
  return { endpoint, access, secret, region, root: '', client, stop: async () => client.destroy() };
}

export async function startUpstreamGateway(): Promise<UpstreamGateway> {
  const external = externalUpstream();
  if (external) return external;
  const gateway = await startGateway({
    root: await makeTempDir('backend-s3-upstream-'),
    credentials: UPSTREAM_CREDENTIALS,
    globalArgs: ['--quiet'],
  });
  let stopping = false;
  // An upstream that dies mid-suite fails every later case with ECONNREFUSED: say why, once.
  void gateway.exited.then((exit) => {
    if (!stopping)
      console.error(
        `upstream gateway exited (${exit.code ?? exit.signal}):\n${gateway.stderr().slice(-4000)}`,
      );
  });
  const client = new S3Client({
    endpoint: gateway.url,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: UPSTREAM_CREDENTIALS.access, secretAccessKey: UPSTREAM_CREDENTIALS.secret },
  });
  return {
    endpoint: gateway.url,
    access: UPSTREAM_CREDENTIALS.access,
    secret: UPSTREAM_CREDENTIALS.secret,
    region: 'us-east-1',
    root: gateway.root,
    client,
    stop: async () => {
      client.destroy();
      stopping = true;
      await gateway.stop();
      await removeDir(gateway.root);
    },
  };
}

/** Creates a meta bucket named `<prefix>-<random>` (unique on a shared external store). */
export async function createMetaBucket(up: UpstreamGateway, prefix: string): Promise<string> {
  const name = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
  await up.client.send(new CreateBucketCommand({ Bucket: name }));
  return name;
}
