#!/usr/bin/env node
// The scale-out figure (issue 21 item 4): `npm run bench:scale-out [-- --seconds S --clients C
// --size BYTES --out DIR]`. Aggregate RDMA PUT and GET throughput of 1, 2 and 3 `vgwrdma
// --rdma-ip 127.0.0.1 s3` gateways in front of the same Ceph RGW, and where the CPU goes:
// each gateway's, radosgw's, ceph-osd's and ceph-mon's CPU time from /proc/<pid>/stat over each
// timed phase, as cores kept busy, next to the clients' own (this process).
// RGW: --rgw-state <state.json> uses a running one; otherwise a private single-node cluster is
// started (test-kit's fixture, ~20 s) and stopped at the end. C clients (cuobjclient sessions,
// each its own softnic agent) are spread evenly over the gateways, addressed directly: the
// balancer carries no RDMA payload, so it is left out of the figure. Every PUT's object is read
// back and every GET compared byte for byte; exit status 1 when any differs.
// Writes DIR/scale-out-<timestamp>.json and prints the markdown table (DIR: bench/results).
import { randomFillSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, hostname, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repo = (p) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const kit = await import(repo('packages/test-kit/dist/index.js'));
const { Session } = await import(repo('packages/cuobjclient/dist/index.js'));
const { S3Client, CreateBucketCommand, GetObjectCommand, PutObjectCommand } = createRequire(
  repo('packages/cuobjclient/package.json'),
)('@aws-sdk/client-s3');

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '6' },
    clients: { type: 'string', default: '6' },
    size: { type: 'string', default: String(8 << 20) },
    gateways: { type: 'string', default: '1,2,3' },
    out: { type: 'string', default: repo('bench/results') },
    // an RGW already running: the fixture's state.json (as VGW_TEST_RGW takes in the tests)
    'rgw-state': { type: 'string' },
  },
});
const SECONDS = Number(args.seconds);
const CLIENTS = Number(args.clients);
const SIZE = Number(args.size);
const COUNTS = args.gateways.split(',').map(Number);
/** Keys per client, overwritten in turn, so memstore holds at most CLIENTS × KEYS objects. */
const KEYS = 4;
const TICK = 100; // USER_HZ

function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICK;
  } catch {
    return 0; // exited (radosgw restarted by its supervisor)
  }
}
const comm = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return `pid ${pid}`;
  }
};

function gatewayArgs(rgw, meta) {
  return [
    ...kit.loopbackArgs(kit.ROOT_CREDENTIALS),
    '--quiet',
    '--rdma-ip',
    '127.0.0.1',
    '--pool-buf-size',
    `${Math.max(SIZE, 4 << 20)}`,
    '--pool-buf-count',
    String(CLIENTS + 1),
    '--rdma-pool-wait-ms',
    '60000',
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

/** What the bench uses of a running RGW, from its state.json (the fixture's format). */
function runningRgw(file) {
  const state = JSON.parse(readFileSync(file, 'utf8'));
  const pidOf = (f) => Number.parseInt(readFileSync(f, 'utf8'), 10);
  return {
    endpoint: state.endpoint,
    region: state.region,
    main: state.users.main,
    pids: () => state.pidFiles.map(pidOf),
  };
}

/** Runs `op` on every session until the deadline; returns ops, bytes, wall and CPU per process. */
async function phase(name, sessions, pids, op) {
  const before = new Map(pids.map((p) => [p.pid, cpuSeconds(p.pid)]));
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  const deadline = Date.now() + SECONDS * 1000;
  const done = await Promise.all(
    sessions.map(async (s, i) => {
      let n = 0;
      while (Date.now() < deadline) await op(s, i, n++);
      return n;
    }),
  );
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(client0);
  const ops = done.reduce((a, b) => a + b, 0);
  const cores = {};
  for (const p of pids)
    cores[p.label] = (cores[p.label] ?? 0) + (cpuSeconds(p.pid) - (before.get(p.pid) ?? 0)) / wall;
  cores.clients = (c.user + c.system) / 1e6 / wall;
  for (const k of Object.keys(cores)) cores[k] = Number(cores[k].toFixed(2));
  return {
    phase: name,
    ops,
    seconds: Number(wall.toFixed(2)),
    GBps: Number(((ops * SIZE) / wall / 1e9).toFixed(3)),
    cores,
  };
}

/** The store's own ceiling: the same clients, plain HTTP PUT/GET straight to RGW, no gateway. */
async function direct(rgw) {
  const Bucket = `scale-bench-direct-${Date.now()}`;
  const up = kit.rgwClient(rgw, rgw.main, {
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const pids = rgw.pids().map((pid) => ({ pid, label: comm(pid) }));
  let bad = 0;
  try {
    await up.send(new CreateBucketCommand({ Bucket }));
    const clients = Array.from({ length: CLIENTS }, (_, i) => i);
    const content = clients.map(() =>
      Array.from({ length: KEYS }, () => randomFillSync(new Uint8Array(SIZE))),
    );
    const key = (i, k) => `c${i}/k${k}`;
    for (const i of clients)
      for (let k = 0; k < KEYS; k++)
        await up.send(new PutObjectCommand({ Bucket, Key: key(i, k), Body: content[i][k] }));
    const put = await phase('PUT', clients, pids, async (_, i, j) => {
      await up.send(new PutObjectCommand({ Bucket, Key: key(i, j % KEYS), Body: content[i][j % KEYS] }));
    });
    const get = await phase('GET', clients, pids, async (_, i, j) => {
      const got = await up.send(new GetObjectCommand({ Bucket, Key: key(i, j % KEYS) }));
      const bytes = await got.Body.transformToByteArray();
      if (!Buffer.from(bytes).equals(content[i][j % KEYS])) bad++;
    });
    return { gateways: 0, clients: CLIENTS, sizeBytes: SIZE, put, get, unverified: bad };
  } finally {
    up.destroy();
  }
}

async function measure(rgw, n) {
  const meta = `scale-bench-meta-${n}-${Date.now()}`;
  const Bucket = `scale-bench-${n}-${Date.now()}`;
  const up = kit.rgwClient(rgw);
  await up.send(new CreateBucketCommand({ Bucket: meta }));
  const gws = await Promise.all(
    Array.from({ length: n }, () => kit.startApp(gatewayArgs(rgw, meta), kit.rdmaEnv())),
  );
  const sdks = gws.map(
    (g) =>
      new S3Client({
        endpoint: g.url,
        region: 'us-east-1',
        forcePathStyle: true,
        // a stalled request fails the run instead of hanging it
        requestHandler: { requestTimeout: 120_000 },
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        credentials: {
          accessKeyId: kit.ROOT_CREDENTIALS.access,
          secretAccessKey: kit.ROOT_CREDENTIALS.secret,
        },
      }),
  );
  const sessions = await Promise.all(Array.from({ length: CLIENTS }, () => Session.open({ size: SIZE })));
  const pids = [
    ...gws.map((g) => ({ pid: g.child.pid, label: 'gateways' })),
    ...rgw.pids().map((pid) => ({ pid, label: comm(pid) })),
  ];
  let bad = 0;
  try {
    await sdks[0].send(new CreateBucketCommand({ Bucket }));
    const content = sessions.map(() =>
      Array.from({ length: KEYS }, () => randomFillSync(new Uint8Array(SIZE))),
    );
    const key = (i, k) => `c${i}/k${k}`;
    const sdkOf = (i) => sdks[i % n];
    // Fill every key once (untimed), so the GET phase has objects and a warm path.
    for (const [i, s] of sessions.entries())
      for (let k = 0; k < KEYS; k++) await s.upload(sdkOf(i), Bucket, key(i, k), content[i][k]);
    const put = await phase('PUT', sessions, pids, async (s, i, j) => {
      const r = await s.upload(sdkOf(i), Bucket, key(i, j % KEYS), content[i][j % KEYS]);
      if (r.via !== 'rdma') bad++;
    });
    const dst = sessions.map(() => new Uint8Array(SIZE));
    const get = await phase('GET', sessions, pids, async (s, i, j) => {
      const r = await s.download(sdkOf(i), Bucket, key(i, j % KEYS), dst[i]);
      if (r.via !== 'rdma' || !Buffer.from(dst[i]).equals(content[i][j % KEYS])) bad++;
    });
    return { gateways: n, clients: CLIENTS, sizeBytes: SIZE, put, get, unverified: bad };
  } finally {
    for (const s of sessions) s.close();
    for (const s of sdks) s.destroy();
    await Promise.all(gws.map((g) => g.stop()));
    up.destroy();
  }
}

const row = (r, p) =>
  `| ${r.gateways === 0 ? 'none: HTTP straight to RGW' : r.gateways} | ${p.phase} | ${p.GBps} | ${p.ops} | ${p.cores.gateways ?? '–'} | ${p.cores.radosgw ?? '–'} | ${p.cores['ceph-osd'] ?? '–'} | ${p.cores['ceph-mon'] ?? '–'} | ${p.cores.clients} |`;

const given = args['rgw-state'];
const own = given ? undefined : await kit.startPrivateCephRgw(await kit.makeTempDir('vgw-rgw-bench-'));
const rgw = own ? own.rgw : runningRgw(given);
const results = [];
const loadStart = loadavg().map((x) => Number(x.toFixed(2)));
try {
  const d = await direct(rgw);
  results.push(d);
  console.error(`[scale-out] RGW direct (HTTP): PUT ${d.put.GBps} GB/s, GET ${d.get.GBps} GB/s`);
  for (const n of COUNTS) {
    const r = await measure(rgw, n);
    results.push(r);
    console.error(`[scale-out] ${n} gateway(s): PUT ${r.put.GBps} GB/s, GET ${r.get.GBps} GB/s`);
  }
} finally {
  await own?.stop();
}
const doc = {
  timestamp: new Date().toISOString(),
  command: `npm run bench:scale-out -- --seconds ${SECONDS} --clients ${CLIENTS} --size ${SIZE}`,
  machine: { hostname: hostname(), cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version },
  loadAverage: { start: loadStart, end: loadavg().map((x) => Number(x.toFixed(2))) },
  rgw: given ? `running (${given})` : 'private single-node Ceph 16.2 (memstore) started by the bench',
  transport:
    'softnic on one host (process_vm_readv/writev), not RDMA hardware; cores = CPU seconds / wall second',
  results,
};
const table = [
  `RDMA ${SIZE / 2 ** 20} MiB objects, ${CLIENTS} clients for ${SECONDS} s per phase, ${doc.machine.cpus} CPUs, load ${loadStart.join(' ')}`,
  '',
  '| gateways | op | GB/s | ops | cores: gateways | radosgw | ceph-osd | ceph-mon | clients |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
  ...results.flatMap((r) => [row(r, r.put), row(r, r.get)]),
].join('\n');
mkdirSync(args.out, { recursive: true });
const file = join(args.out, `scale-out-${doc.timestamp.replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
console.log(table);
console.error(`[scale-out] wrote ${file}`);
process.exitCode = results.every((r) => r.unverified === 0) ? 0 : 1;
