// The shared backend conformance kit, run against S3Backend with the upstream being a second
// gateway process (the built app on the posix backend), reached over HTTP on loopback. A meta
// bucket holds bucket ACLs, so ownership answers (BucketAlreadyExists for another owner) work.
import { runBackendConformance } from '@vgwrdma/s3-backend/conformance';
import { S3Backend } from '../src/index.js';
import { createMetaBucket, startUpstreamGateway, UPSTREAM_CREDENTIALS } from './upstream-gateway.js';

runBackendConformance('s3 (upstream: posix gateway process)', async () => {
  const upstream = await startUpstreamGateway();
  await createMetaBucket(upstream, 'vgw-meta');
  const backend = await S3Backend.open({
    endpoint: upstream.endpoint,
    region: 'us-east-1',
    access: UPSTREAM_CREDENTIALS.access,
    secret: UPSTREAM_CREDENTIALS.secret,
    usePathStyle: true,
    metaBucket: 'vgw-meta',
  });
  return {
    backend,
    cleanup: async () => {
      await backend.shutdown();
      await upstream.stop();
    },
  };
});
