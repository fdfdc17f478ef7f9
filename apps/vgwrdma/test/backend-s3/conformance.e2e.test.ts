// The shared backend conformance kit, run against S3Backend once per upstream (upstreams.ts): a
// second gateway process (the built app on the posix backend) and a real Ceph RGW, both reached
// over HTTP on loopback. A meta bucket holds bucket ACLs, so ownership answers
// (BucketAlreadyExists for another owner) work.

import { type ConformanceOptions, runBackendConformance } from '@vgwrdma/backend-contract/conformance';
import { S3Backend } from '@vgwrdma/backend-s3';
import { describe } from 'vitest';
import { createMetaBucket } from './upstream-gateway.js';
import { suiteTitle, UPSTREAM_START_TIMEOUT_MS, UPSTREAMS, type UpstreamName } from './upstreams.js';

// No case is skipped against the posix gateway. Against an external store (BACKEND_S3_TEST_*),
// name the cases it cannot support in BACKEND_S3_TEST_SKIP (comma-separated ids).
const externalSkip = (process.env.BACKEND_S3_TEST_SKIP ?? '').split(',').filter(Boolean);

// Ceph RGW 16.2: what it cannot do (docs/compatibility.md, "The s3 backend over Ceph RGW").
const NO_FLEXIBLE_CHECKSUMS =
  'RGW 16.2 predates flexible checksums: it stores and returns no x-amz-checksum-*';
const NO_PART_NUMBER = 'RGW 16.2 ignores partNumber on GET/HEAD and serves the whole object';
const TRAILER_BODIES =
  'RGW 16.2 refuses aws-chunked bodies with a checksum trailer (411 MissingContentLength); a checksum the client sends in a header is forwarded as a header and works';
const RGW_EXPECTED_FAILURES: Record<string, string> = {
  'checksums.default-crc64nvme': NO_FLEXIBLE_CHECKSUMS,
  'multipart.crc64nvme-full-object': NO_FLEXIBLE_CHECKSUMS,
  'checksums.verified-crc32': TRAILER_BODIES,
  'checksums.verified-crc32c': TRAILER_BODIES,
  'checksums.verified-crc64nvme': TRAILER_BODIES,
  'checksums.verified-sha1': TRAILER_BODIES,
  'checksums.verified-sha256': TRAILER_BODIES,
  'checksums.trailer-absent': TRAILER_BODIES,
  'checksums.trailer-late': TRAILER_BODIES,
  'multipart.get-part-number': NO_PART_NUMBER,
  'multipart.part-number-out-of-range': NO_PART_NUMBER,
};

const OPTIONS: Record<UpstreamName, ConformanceOptions> = {
  gateway: { skip: externalSkip, setupTimeout: UPSTREAM_START_TIMEOUT_MS },
  rgw: { expectFail: RGW_EXPECTED_FAILURES, setupTimeout: UPSTREAM_START_TIMEOUT_MS },
};

for (const up of UPSTREAMS) {
  describe.skipIf(up.unavailable !== undefined)(suiteTitle(up), () => {
    runBackendConformance(
      `s3 (upstream: ${up.title})`,
      async () => {
        const upstream = await up.start();
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
      OPTIONS[up.name],
    );
  });
}
