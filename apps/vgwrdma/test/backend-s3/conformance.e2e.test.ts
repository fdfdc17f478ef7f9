// The shared backend conformance kit, run against S3Backend with the upstream being a second
// gateway process (the built app on the posix backend), reached over HTTP on loopback. A meta
// bucket holds bucket ACLs, so ownership answers (BucketAlreadyExists for another owner) work.

import { S3Backend } from '@vgwrdma/backend-s3';
import { runBackendConformance } from '@vgwrdma/s3-backend/conformance';
import { createMetaBucket, startUpstreamGateway } from './upstream-gateway.js';

const target = process.env.BACKEND_S3_TEST_ENDPOINT ?? 'posix gateway process';

// No case is skipped against the posix gateway. Against an external store, name the cases it
// cannot support in BACKEND_S3_TEST_SKIP (comma-separated ids), e.g. the CRC64NVME cases on a Ceph
// release that predates that algorithm.
const skip = (process.env.BACKEND_S3_TEST_SKIP ?? '').split(',').filter(Boolean);

runBackendConformance(
  `s3 (upstream: ${target})`,
  async () => {
    const upstream = await startUpstreamGateway();
    const metaBucket = await createMetaBucket(upstream, 'vgw-meta');
    const backend = await S3Backend.open({
      endpoint: upstream.endpoint,
      region: upstream.region,
      access: upstream.access,
      secret: upstream.secret,
      usePathStyle: true,
      metaBucket,
    });
    return {
      backend,
      cleanup: async () => {
        await backend.shutdown();
        await upstream.stop();
      },
    };
  },
  { skip },
);
