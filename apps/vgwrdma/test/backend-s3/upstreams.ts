// The upstreams backend-s3's end-to-end tests run against, each suite once per upstream: a second
// copy of our gateway (the built app on posix) and a real Ceph RGW 16.2 (test-kit's shared
// fixture: one per vitest run). An upstream this machine cannot run carries the reason to skip.
import { cephRgwUnavailable, rgwClient, sharedCephRgw } from '@vgwrdma/test-kit';
import { startUpstreamGateway, type UpstreamGateway } from './upstream-gateway.js';

export type UpstreamName = 'gateway' | 'rgw';

/** For the beforeAll that starts an upstream: the run's RGW takes ~20 s to start, minutes on a loaded machine. */
export const UPSTREAM_START_TIMEOUT_MS = 420_000;

export interface Upstream {
  name: UpstreamName;
  /** What the suites' titles say. */
  title: string;
  /** undefined when it can run here, else why the suite skips. */
  unavailable: string | undefined;
  start(): Promise<UpstreamGateway>;
}

async function startRgwUpstream(): Promise<UpstreamGateway> {
  const rgw = await sharedCephRgw();
  const client = rgwClient(rgw, rgw.main, { maxAttempts: 3 });
  return {
    endpoint: rgw.endpoint,
    access: rgw.main.accessKeyId,
    secret: rgw.main.secretAccessKey,
    region: rgw.region,
    root: '',
    client,
    // the cluster is the run's, stopped when the run ends
    stop: async () => client.destroy(),
  };
}

export const UPSTREAMS: readonly Upstream[] = [
  {
    name: 'gateway',
    title: process.env.BACKEND_S3_TEST_ENDPOINT ?? 'posix gateway process',
    unavailable: undefined,
    start: startUpstreamGateway,
  },
  { name: 'rgw', title: 'Ceph RGW 16.2', unavailable: cephRgwUnavailable(), start: startRgwUpstream },
];

/** `title`, plus the reason when the upstream is unavailable (shown on the skipped suite). */
export function suiteTitle(up: Upstream): string {
  return up.unavailable ? `${up.title} (skipped: ${up.unavailable})` : up.title;
}
