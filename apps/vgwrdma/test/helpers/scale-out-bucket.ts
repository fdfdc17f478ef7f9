// The scale-out scene as its test files use it: the three gateways behind haproxy (scale-out.ts),
// the file's bucket in it (created through gw1), an S3 client straight to each gateway on demand
// (RDMA_SDK_OPTIONS: no flexible checksums, whose aws-chunked bodies through the s3 proxy are
// another lane's subject), an RDMA host client on demand, and one stop() for all of it.
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { HostClient } from '@vgwrdma/rdma-ffi';
import { killAllChildren } from '@vgwrdma/test-kit';
import { RDMA_SDK_OPTIONS, type S3Client } from './rdma.js';
import { gatewayClient, type ScaleOut, type ScaleOutOptions, startScaleOut } from './scale-out.js';

export interface ScaleOutBucket {
  readonly scene: ScaleOut;
  /** The file's bucket (upstream name carrying the lane prefix). */
  readonly Bucket: string;
  /** The client of gateway i (made on first use, kept until stop). */
  sdk(i: number): S3Client;
  /** The file's RDMA host client (made on first use, closed by stop). */
  host(): HostClient;
  /** Destroys the clients, closes the host client, stops the scene and kills every tracked child. */
  stop(): Promise<void>;
}

/** Starts the scene with `options` and creates the bucket `label` names. */
export async function startScaleOutBucket(
  label: string,
  options: ScaleOutOptions = {},
): Promise<ScaleOutBucket> {
  const scene = await startScaleOut(options);
  const Bucket = scene.bucketName(label);
  const sdks = new Map<number, S3Client>();
  let host: HostClient | undefined;
  const sdk = (i: number): S3Client => {
    const gw = scene.gateways[i];
    if (!gw) throw new Error(`no gateway ${i}`);
    const made = sdks.get(i) ?? gatewayClient(gw.url, RDMA_SDK_OPTIONS);
    sdks.set(i, made);
    return made;
  };
  const stop = async (): Promise<void> => {
    for (const s of sdks.values()) s.destroy();
    host?.close();
    await scene.stop();
    killAllChildren();
  };
  try {
    await sdk(0).send(new CreateBucketCommand({ Bucket }));
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    scene,
    Bucket,
    sdk,
    host: () => {
      host ??= new HostClient();
      return host;
    },
    stop,
  };
}
