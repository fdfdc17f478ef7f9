// CuServer throughput over posix: PUT and GET of one object by RDMA (softnic, HostClient in a
// child process) next to the same object through a plain body, on the same backend and disk.
// Run: node --conditions=source --import tsx bench/throughput.ts [MiB] [root-dir] [chunk MiB]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { BufferPool } from '@vgwrdma/bufferpool';
import { parseRdmaToken, RdmaServer } from '@vgwrdma/rdma-ffi';
import type { RequestContext } from '@vgwrdma/s3-backend';
import { CuServer } from '../src/index.js';
import { ClientProcess } from '../test/client-process.js';

const MiB = 1 << 20;
const size = Number(process.argv[2] ?? 256) * MiB;
const base = process.argv[3] ?? tmpdir();
const chunk = Number(process.argv[4] ?? 8) * MiB;
const ctx = (token?: string): RequestContext => {
  const c = {
    account: { access: 'bench', role: 'admin' as const },
    requestId: 'bench',
    signal: new AbortController().signal,
  };
  if (!token) return c;
  const t = parseRdmaToken(token);
  return { ...c, rdma: { token: t.base, remoteAddress: t.remoteAddr, size: t.length, scheme: 'token' } };
};
const gbps = (ms: number) => `${(size / 1e9 / (ms / 1000)).toFixed(2)} GB/s (${ms.toFixed(0)} ms)`;
async function time(f: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
}

const dir = await mkdtemp(join(base, 'cu-bench-'));
const client = await ClientProcess.start();
const posix = await PosixBackend.open({ root: join(dir, 'root') });
const server = new RdmaServer({ channels: 8 });
const pool = BufferPool.create(server, { count: 4, size: 64 * MiB });
const cu = new CuServer({ server, pool, chunkSize: chunk }, posix);
try {
  await cu.createBucket(ctx(), { bucket: 'bench', owner: 'bench', acl: { Owner: 'bench', Grantees: [] } });
  const { region } = await client.alloc(size);
  await client.fill(region, 42);
  const data = Buffer.from(await client.bytes(region));
  const sink = () => new Writable({ write: (_c, _e, cb) => cb() });
  for (let round = 0; round < 2; round++) {
    const plainPut = await time(() =>
      posix.putObject(ctx(), {
        bucket: 'bench',
        key: 'plain',
        body: Readable.from(chunks(data)),
        contentLength: size,
      }),
    );
    const plainGet = await time(async () =>
      pipeline((await posix.getObject(ctx(), { bucket: 'bench', key: 'plain' })).body, sink()),
    );
    const putToken = await client.token(region, 0, size, 'put');
    const rdmaPut = await time(() =>
      cu.putObject(ctx(putToken), { bucket: 'bench', key: 'rdma', body: Readable.from([]) }),
    );
    const getToken = await client.token(region, 0, size, 'get');
    const rdmaGet = await time(() => cu.getObject(ctx(getToken), { bucket: 'bench', key: 'rdma' }));
    console.log(
      `round ${round} size ${size / MiB} MiB chunk ${chunk / MiB} MiB | posix plain PUT ${gbps(plainPut)} GET(drain) ${gbps(plainGet)} | ` +
        `CuServer RDMA PUT ${gbps(rdmaPut)} GET ${gbps(rdmaGet)}`,
    );
  }
  console.log('server stats', server.stats());
} finally {
  await cu.shutdown();
  await client.stop();
  await rm(dir, { recursive: true, force: true });
}

function* chunks(b: Buffer) {
  for (let o = 0; o < b.length; o += MiB) yield b.subarray(o, o + MiB);
}
