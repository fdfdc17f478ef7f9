// The scale-out scene: N built `vgwrdma --rdma-ip 127.0.0.1 s3` gateways (each with its own
// softnic RDMA server, buffer pool and ports) over the run's Ceph RGW, all naming one meta
// bucket, behind HAProxy on loopback. Tests address a gateway directly (gw[i].url) to say which
// one takes a request, or the balancer (lb.url) to let it choose.
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteObjectsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  type AppProcess,
  type CephRgw,
  type Credentials,
  type Haproxy,
  loopbackArgs,
  ROOT_CREDENTIALS,
  rdmaEnv,
  s3Client,
  sharedCephRgw,
  startApp,
  startHaproxy,
} from '@vgwrdma/test-kit';

export interface ScaleOutOptions {
  /** Gateways; default 3. */
  readonly count?: number;
  /** Each gateway's pool: buffer size and count (default 8MiB × 4). */
  readonly poolBufSize?: string;
  readonly poolBufCount?: number;
  /** More global flags for every gateway. */
  readonly args?: readonly string[];
}

export interface ScaleOut {
  readonly rgw: CephRgw;
  /** The shared meta bucket (upstream). */
  readonly meta: string;
  readonly gateways: AppProcess[];
  readonly lb: Haproxy;
  /** An S3 client straight to RGW (the upstream user), to look at what landed there. */
  readonly upstream: S3Client;
  /** Starts gateway i again (after a kill); haproxy finds it by its port, so the port is kept. */
  restart(i: number): Promise<AppProcess>;
  /** A fresh upstream bucket name carrying the lane prefix. */
  bucketName(label: string): string;
  stop(): Promise<void>;
}

/** A client of the gateways (their root account), path-style; `extra` as for s3Client. */
export const gatewayClient = (url: string, extra: ConstructorParameters<typeof S3Client>[0] = {}) =>
  s3Client(url, ROOT_CREDENTIALS, extra);

export { rdmaStats } from './rdma-stats.js';

const suffix = () => randomBytes(4).toString('hex');

function gatewayArgs(rgw: CephRgw, meta: string, o: ScaleOutOptions, port: number): string[] {
  const root: Credentials = ROOT_CREDENTIALS;
  const listen = loopbackArgs(root).map((a) => (a === '127.0.0.1:0' ? `127.0.0.1:${port}` : a));
  return [
    ...listen,
    '--quiet',
    '--health',
    '/health',
    '--ready',
    '/ready',
    '--rdma-ip',
    '127.0.0.1',
    '--pool-buf-size',
    o.poolBufSize ?? '8MiB',
    '--pool-buf-count',
    String(o.poolBufCount ?? 4),
    ...(o.args ?? []),
    's3',
    '--endpoint',
    rgw.endpoint,
    '--region',
    rgw.region,
    '--access',
    rgw.main.accessKeyId,
    '--secret',
    rgw.main.secretAccessKey,
    '--use-path-style',
    '--meta-bucket',
    meta,
  ];
}

/** Empties and removes an upstream bucket (best effort: cleanup). */
export async function dropBucket(upstream: S3Client, Bucket: string): Promise<void> {
  try {
    for (;;) {
      const page = await upstream.send(new ListObjectsV2Command({ Bucket }));
      const keys = (page.Contents ?? []).map((c) => ({ Key: c.Key as string }));
      if (keys.length === 0) break;
      await upstream.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys } }));
    }
    await upstream.send(new DeleteBucketCommand({ Bucket }));
  } catch {
    // already gone, or the store is down: nothing more to clean
  }
}

/** A gateway's whole answer (on one line) to exactly the request haproxy's check sends. */
function checkAnswer(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.end('GET /ready HTTP/1.0\r\n\r\n'));
    let text = '';
    socket.setEncoding('utf8');
    socket.setTimeout(5_000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('data', (d: string) => {
      text += d;
    });
    socket.once('error', (e) => resolve(String(e)));
    socket.once('close', () => resolve(text.split('\r\n\r\n').join(' ').replace(/\r\n/g, '; ')));
  });
}

/** How long the balancer may take to see every gateway ready. */
const READY_WAIT_MS = 90_000;

export async function startScaleOut(o: ScaleOutOptions = {}): Promise<ScaleOut> {
  const rgw = await sharedCephRgw();
  const upstream = new S3Client({
    endpoint: rgw.endpoint,
    region: rgw.region,
    forcePathStyle: true,
    credentials: { accessKeyId: rgw.main.accessKeyId, secretAccessKey: rgw.main.secretAccessKey },
  });
  const run = suffix();
  const meta = `i21-scale-meta-${run}`;
  await upstream.send(new CreateBucketCommand({ Bucket: meta }));
  const count = o.count ?? 3;
  const env = rdmaEnv();
  const start = (port: number) => startApp(gatewayArgs(rgw, meta, o, port), env);
  // Port 0 the first time; a restart reuses the port haproxy knows.
  const gateways = await Promise.all(Array.from({ length: count }, () => start(0)));
  const lb = await startHaproxy({
    servers: gateways.map((g, i) => ({ name: `gw${i + 1}`, address: `127.0.0.1:${g.port}` })),
  });
  // The shared RGW may be restarting (its restart loop) or slow on a loaded machine: the gateways'
  // readiness follows it, so allow the store time to come back; say what /ready answered if not.
  try {
    await lb.waitFor(
      'UP',
      gateways.map((_, i) => `gw${i + 1}`),
      READY_WAIT_MS,
    );
  } catch (err) {
    const answers = await Promise.all(gateways.map((g) => checkAnswer(g.port)));
    // No scene comes back to stop: stop what was started here, and leave no meta bucket behind.
    await lb.stop();
    await Promise.all(gateways.map((g) => g.stop()));
    await dropBucket(upstream, meta);
    upstream.destroy();
    throw new Error(
      `${(err as Error).message}; GET /ready HTTP/1.0 (haproxy's check) answered: ${answers.join(' | ')}`,
    );
  }
  const names = new Set<string>([meta]);
  return {
    rgw,
    meta,
    gateways,
    lb,
    upstream,
    restart: async (i) => {
      const old = gateways[i];
      if (!old) throw new Error(`no gateway ${i}`);
      const next = await start(old.port);
      gateways[i] = next;
      return next;
    },
    bucketName: (label) => {
      const name = `i21-scale-${label}-${run}`;
      names.add(name);
      return name;
    },
    stop: async () => {
      await lb.stop();
      await Promise.all(gateways.map((g) => g.stop()));
      for (const name of names) await dropBucket(upstream, name);
      upstream.destroy();
    },
  };
}
