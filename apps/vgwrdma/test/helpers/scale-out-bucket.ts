// The scale-out scene as its test files use it, as the file's hooks (the kit's useFileResource):
// `useScaleOutBucket(label)` starts the three gateways behind haproxy (scale-out.ts) and creates
// the file's bucket through gw1 in a beforeAll, and takes it all down in an afterAll. The
// bucket's name is known at once (a lane-prefixed name of its own); the rest is there from the
// file's own hooks and tests on: an S3 client straight to each gateway on demand
// (RDMA_SDK_OPTIONS: no flexible checksums, whose aws-chunked bodies through the s3 proxy are
// another lane's subject) and an RDMA host client on demand. Call it before the file's own hooks
// (vitest runs after-hooks in reverse, so the file's teardown runs before the scene's).
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { HostClient } from '@vgwrdma/rdma-ffi';
import { cephRgwUnavailable, haproxyUnavailable, killAllChildren, useFileResource } from '@vgwrdma/test-kit';
import { RDMA_SDK_OPTIONS, type S3Client } from './rdma.js';
import {
  dropBucket,
  gatewayClient,
  type ScaleOut,
  type ScaleOutOptions,
  startScaleOut,
} from './scale-out.js';

/** Why the scale-out tests cannot run here (printed once per file), or undefined. */
export function scaleOutSkip(): string | undefined {
  const skip = cephRgwUnavailable() ?? haproxyUnavailable();
  if (skip) console.log(`scale-out tests skipped: ${skip}`);
  return skip;
}

export interface ScaleOutBucket {
  /** The file's bucket. */
  readonly Bucket: string;
  /** The scene (from the file's hooks and tests on). */
  readonly scene: ScaleOut;
  /** The client of gateway i (made on first use, kept until the end). */
  sdk(i: number): S3Client;
  /** The file's RDMA host client (made on first use, closed at the end). */
  host(): HostClient;
}

/** How long the scene may take to start: three gateways on the shared RGW, haproxy seeing them ready. */
const START_MS = 240_000;

/** Registers the hooks of a scene started with `options` and of the bucket `label` names. */
export function useScaleOutBucket(label: string, options: ScaleOutOptions = {}): ScaleOutBucket {
  const Bucket = `i21-scale-${label}-${randomBytes(4).toString('hex')}`;
  const sdks = new Map<number, S3Client>();
  let host: HostClient | undefined;
  const clientOf = (scene: ScaleOut, i: number): S3Client => {
    const gw = scene.gateways[i];
    if (!gw) throw new Error(`no gateway ${i}`);
    const made = sdks.get(i) ?? gatewayClient(gw.url, RDMA_SDK_OPTIONS);
    sdks.set(i, made);
    return made;
  };
  const stop = async (scene: ScaleOut): Promise<void> => {
    for (const s of sdks.values()) s.destroy();
    host?.close();
    await dropBucket(scene.upstream, Bucket);
    await scene.stop();
    killAllChildren();
  };
  const start = async (): Promise<ScaleOut> => {
    const scene = await startScaleOut(options);
    try {
      await clientOf(scene, 0).send(new CreateBucketCommand({ Bucket }));
    } catch (error) {
      await stop(scene);
      throw error;
    }
    return scene;
  };
  const scene = useFileResource('the scale-out scene', start, stop, START_MS);
  return {
    Bucket,
    get scene() {
      return scene();
    },
    sdk: (i) => clientOf(scene(), i),
    host: () => {
      host ??= new HostClient();
      return host;
    },
  };
}
