// A gateway over a backend a test made, with one bucket created: the setup the SDK suites share.
// close() closes the gateway, then runs the backend's cleanup (also when the setup itself fails).
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import type { Backend } from '@vgwrdma/backend-contract';
import { startGateway, type TestGateway } from './harness.js';

/** A backend and what removes it again (a temp tree, a shutdown). */
export interface MadeBackend {
  backend: Backend;
  cleanup(): Promise<void>;
}

export async function bucketGateway(made: MadeBackend, bucket: string): Promise<TestGateway> {
  let gw: TestGateway | undefined;
  try {
    gw = await startGateway(made.backend);
    await gw.client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    await gw?.close();
    await made.cleanup();
    throw err;
  }
  const started = gw;
  return {
    ...started,
    close: async () => {
      await started.close();
      await made.cleanup();
    },
  };
}
