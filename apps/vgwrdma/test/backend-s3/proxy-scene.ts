// The scene of backend-s3's single-upstream e2e files: a posix gateway process as the upstream
// (upstream-gateway.ts), a meta bucket on it, the built app as `vgwrdma s3` in front with the
// file's own flags, a root-account SDK client of the proxy, and the buckets the file needs made
// through the proxy. stop() undoes it all.
import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { type AppProcess, ROOT_CREDENTIALS, s3Client } from '@vgwrdma/test-kit';
import {
  createMetaBucket,
  startProxyGateway,
  startUpstreamGateway,
  type UpstreamGateway,
} from './upstream-gateway.js';

export interface ProxySceneOptions {
  /** The upstream keeps versions. */
  readonly versioning?: boolean;
  /** The meta bucket's name prefix (a random suffix is added). */
  readonly metaPrefix: string;
  /** More `vgwrdma s3` flags after `--meta-bucket`. */
  readonly s3Args?: readonly string[];
  /** Buckets the root account creates through the proxy. */
  readonly buckets?: readonly string[];
}

export interface ProxyScene {
  readonly up: UpstreamGateway;
  readonly proxy: AppProcess;
  /** The proxy's root-account client. */
  readonly client: S3Client;
  /** Destroys the client, stops the proxy, then the upstream. */
  stop(): Promise<void>;
}

/** Starts the scene; what started before a failure is stopped again before the error is thrown. */
export async function startProxyScene(options: ProxySceneOptions): Promise<ProxyScene> {
  let proxy: AppProcess | undefined;
  let client: S3Client | undefined;
  const up = await startUpstreamGateway(options.versioning ? { versioning: true } : {});
  const stop = async () => {
    client?.destroy();
    await proxy?.stop();
    await up.stop();
  };
  try {
    const meta = await createMetaBucket(up, options.metaPrefix);
    proxy = await startProxyGateway(up, ['--meta-bucket', meta, ...(options.s3Args ?? [])]);
    client = s3Client(proxy.url, ROOT_CREDENTIALS);
    for (const Bucket of options.buckets ?? []) await client.send(new CreateBucketCommand({ Bucket }));
    return { up, proxy, client, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
