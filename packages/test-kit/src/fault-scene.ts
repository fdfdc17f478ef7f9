// The setting every fault test starts from: an RDMA gateway process (softnic) with the flags the
// fault needs, an SDK client on it, the test's bucket and the objects it reads, and one close()
// that takes all of it down again (client, gateway, its root unless the test gave it, any child
// the test started).
import {
  CreateBucketCommand,
  PutObjectCommand,
  type S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { killAllChildren } from './child-registry.js';
import type { GatewayProcess } from './gateway-process.js';
import { ROOT_CREDENTIALS } from './gateway-process.js';
import { type RdmaGatewayOptions, startRdmaGateway } from './rdma-gateway.js';
import { s3Client } from './s3-client.js';
import { removeDir } from './temp-dir.js';

export interface FaultSceneOptions extends RdmaGatewayOptions {
  /** The bucket the test works in; created before the scene is handed over. */
  readonly bucket: string;
  /** Objects put into the bucket first (key → bytes). */
  readonly objects?: Readonly<Record<string, Uint8Array>>;
  /** SDK settings merged over s3Client's (for RDMA: the client rules' checksum settings). */
  readonly sdk?: Partial<S3ClientConfig>;
}

export interface FaultScene {
  readonly gw: GatewayProcess;
  /** A client with the root account (no retries). */
  readonly sdk: S3Client;
  /**
   * Destroys the client, stops the gateway, removes its root (only a root the scene made: one
   * passed as `root` stays the caller's) and kills every tracked child.
   */
  close(): Promise<void>;
}

export async function startFaultScene(options: FaultSceneOptions): Promise<FaultScene> {
  const { bucket, objects = {}, sdk: sdkOptions = {}, ...gateway } = options;
  const gw = await startRdmaGateway(gateway);
  const sdk = s3Client(gw.url, gateway.credentials ?? ROOT_CREDENTIALS, sdkOptions);
  const close = async (): Promise<void> => {
    sdk.destroy();
    await gw.stop();
    if (gateway.root === undefined) await removeDir(gw.root);
    killAllChildren();
  };
  try {
    await sdk.send(new CreateBucketCommand({ Bucket: bucket }));
    for (const [Key, Body] of Object.entries(objects)) {
      await sdk.send(new PutObjectCommand({ Bucket: bucket, Key, Body }));
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { gw, sdk, close };
}
