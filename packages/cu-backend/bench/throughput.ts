// CuServer throughput: PUT and GET of one object by RDMA (softnic, HostClient in a child process)
// against the same bytes through a plain body, run alternately (A B A B ...) and reported as
// per-pair ratios (the performance targets (bench/README.md): shared noisy machines). Two backends:
//   md5   — a sink that only computes the MD5 ETag (PUT) / serves bytes from memory (GET): the
//           RDMA data path itself, against the MD5 wall (~0.76 GB/s a core)
//   posix — the real posix backend in a temp dir (disk, CRC64NVME, atomic publish)
// Every run verifies the data by MD5. Prints a table; writes JSON to bench/results/ when asked.
// Run: node --conditions=source --import tsx bench/throughput.ts [MiB=256] [rounds=3] [--json]
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  type Backend,
  type GetObjectInput,
  type GetObjectOutput,
  type PutObjectInput,
  type PutObjectOutput,
  type RequestContext,
  UnsupportedBackend,
} from '@vgwrdma/backend-contract';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { BufferPool } from '@vgwrdma/bufferpool';
import { RdmaServer } from '@vgwrdma/rdma-ffi';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { CuServer } from '../src/index.js';
import { ClientProcess } from '../test/client-process.js';

const MiB = 1 << 20;
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const size = Number(args[0] ?? 256) * MiB;
const rounds = Number(args[1] ?? 3);
const writeJson = process.argv.includes('--json');

/** PUT computes the MD5 ETag and keeps the bytes; GET serves them from memory. */
class Md5Sink extends UnsupportedBackend {
  override readonly name = 'md5';
  private data = Buffer.alloc(0);
  override async putObject(_c: RequestContext, input: PutObjectInput): Promise<PutObjectOutput> {
    const h = createHash('md5');
    const chunks: Buffer[] = [];
    for await (const c of input.body) {
      h.update(c as Buffer);
      chunks.push(c as Buffer);
    }
    this.data = Buffer.concat(chunks);
    return { etag: `"${h.digest('hex')}"`, size: this.data.length, checksums: {} };
  }
  override async getObject(_c: RequestContext, _i: GetObjectInput): Promise<GetObjectOutput> {
    const d = this.data;
    const body = Readable.from(
      (function* () {
        for (let o = 0; o < d.length; o += MiB) yield d.subarray(o, o + MiB);
      })(),
    );
    return { key: 'k', etag: '"x"', size: d.length, lastModified: new Date(), metadata: {}, body };
  }
}

const ctx = (token?: string): RequestContext => {
  const c = {
    account: { access: 'bench', role: 'admin' as const },
    requestId: 'bench',
    signal: new AbortController().signal,
  };
  if (!token) return c;
  return { ...c, rdma: { token: parseRdmaToken(token), scheme: 'token' } };
};
const gbps = (ms: number) => size / 1e9 / (ms / 1000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
async function time(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

const dir = await mkdtemp(join(tmpdir(), 'cu-bench-'));
const client = await ClientProcess.start();
const results: Record<string, unknown>[] = [];
try {
  const { region } = await client.alloc(size);
  await client.fill(region, 42);
  const data = Buffer.from(await client.bytes(region));
  const expected = createHash('md5').update(data).digest('hex');
  const { region: target } = await client.alloc(size);
  const backends: Record<string, Backend> = {
    md5: new Md5Sink(),
    posix: await PosixBackend.open({ root: join(dir, 'root') }),
  };
  await backends.posix?.createBucket(ctx(), {
    bucket: 'bench',
    owner: 'bench',
    acl: { Owner: 'bench', Grantees: [] },
  });
  for (const [name, inner] of Object.entries(backends)) {
    const server = new RdmaServer({ channels: 8 });
    const pool = BufferPool.create(server, { count: 4, size: 64 * MiB });
    const cu = new CuServer({ server, pool }, inner);
    const pairs = {
      putRatio: [] as number[],
      getRatio: [] as number[],
      put: [] as number[],
      putPlain: [] as number[],
      get: [] as number[],
      getPlain: [] as number[],
    };
    for (let r = 0; r < rounds; r++) {
      const plainPut = await time(async () => {
        const out = await cu.putObject(ctx(), {
          bucket: 'bench',
          key: 'k',
          body: Readable.from([data]),
          contentLength: size,
        });
        if (out.etag !== `"${expected}"`) throw new Error('plain PUT: wrong ETag');
      });
      const rdmaPut = await time(async () => {
        const out = await cu.putObject(ctx(await client.token(region, 0, size, 'put')), {
          bucket: 'bench',
          key: 'k',
          body: Readable.from([]),
        });
        if (out.etag !== `"${expected}"`) throw new Error('RDMA PUT: wrong ETag');
      });
      // Plain GET copies the body into one destination buffer, as the RDMA GET fills client memory;
      // both are verified after the clock stops.
      const sink = Buffer.alloc(size);
      const plainGet = await time(async () => {
        let at = 0;
        for await (const c of (await cu.getObject(ctx(), { bucket: 'bench', key: 'k' })).body) {
          sink.set(c as Buffer, at);
          at += (c as Buffer).length;
        }
      });
      if (createHash('md5').update(sink).digest('hex') !== expected)
        throw new Error('plain GET: wrong bytes');
      const rdmaGetMs = await time(async () => {
        await cu.getObject(ctx(await client.token(target, 0, size, 'get')), { bucket: 'bench', key: 'k' });
      });
      if ((await client.hash(target)) !== expected) throw new Error('RDMA GET: wrong bytes');
      pairs.put.push(gbps(rdmaPut));
      pairs.putPlain.push(gbps(plainPut));
      pairs.get.push(gbps(rdmaGetMs));
      pairs.getPlain.push(gbps(plainGet));
      pairs.putRatio.push(plainPut / rdmaPut);
      pairs.getRatio.push(plainGet / rdmaGetMs);
    }
    const direct = server.stats().directTransfers > 0;
    await cu.shutdown();
    const row = {
      backend: name,
      transport: `softnic ${direct ? 'same-host direct' : 'tcp'}`,
      sizeMiB: size / MiB,
      rdmaPutGBps: median(pairs.put),
      plainPutGBps: median(pairs.putPlain),
      putRatio: median(pairs.putRatio),
      rdmaGetGBps: median(pairs.get),
      plainGetGBps: median(pairs.getPlain),
      getRatio: median(pairs.getRatio),
    };
    results.push(row);
  }
  console.table(
    results.map((r) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [k, typeof v === 'number' ? Number(v.toFixed(2)) : v]),
      ),
    ),
  );
  if (writeJson) {
    await mkdir(new URL('./results/', import.meta.url), { recursive: true });
    await writeFile(
      new URL(`./results/throughput-${Date.now()}.json`, import.meta.url),
      JSON.stringify({ rounds, results }, null, 2),
    );
  }
} finally {
  await client.stop();
  await rm(dir, { recursive: true, force: true });
}
