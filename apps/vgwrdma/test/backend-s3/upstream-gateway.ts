// The upstream for backend-s3's end-to-end tests: a second gateway PROCESS — the built app
// serving the posix backend on a temp directory (test-kit's startGateway). Tests talk to it
// through S3Backend exactly as a proxy gateway would. With BACKEND_S3_TEST_ENDPOINT set (plus
// _ACCESS, _SECRET, optional _REGION), the same suites run against that store instead (a Ceph RGW
// or MinIO: the optional target in docs/deployment.md).
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  type AppProcess,
  type Credentials,
  loopbackArgs,
  makeTempDir,
  ROOT_CREDENTIALS,
  removeDir,
  startApp,
  startGateway,
} from '@vgwrdma/test-kit';

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

/** `versioning`: the posix upstream keeps versions (in a directory beside its root). */
export async function startUpstreamGateway(options: { versioning?: boolean } = {}): Promise<UpstreamGateway> {
  const external = externalUpstream();
  if (external) return external;
  const root = await makeTempDir('backend-s3-upstream-');
  const versions = options.versioning ? await makeTempDir('backend-s3-versions-') : undefined;
  const gateway = await startGateway({
    root,
    credentials: UPSTREAM_CREDENTIALS,
    globalArgs: ['--quiet'],
    ...(versions ? { posixArgs: ['--versioning-dir', versions] } : {}),
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
      if (versions) await removeDir(versions);
    },
  };
}

/** Creates a meta bucket named `<prefix>-<random>` (unique on a shared external store). */
export async function createMetaBucket(up: UpstreamGateway, prefix: string): Promise<string> {
  const name = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
  await up.client.send(new CreateBucketCommand({ Bucket: name }));
  return name;
}

/** The built app as `vgwrdma s3` in front of `up` (path-style), with extra s3 flags. */
export async function startProxyGateway(
  up: UpstreamGateway,
  s3Args: readonly string[] = [],
  credentials: Credentials = ROOT_CREDENTIALS,
): Promise<AppProcess> {
  return startApp([
    ...loopbackArgs(credentials),
    '--quiet',
    's3',
    '--endpoint',
    up.endpoint,
    '--region',
    up.region,
    '--access',
    up.access,
    '--secret',
    up.secret,
    '--use-path-style',
    ...s3Args,
  ]);
}
