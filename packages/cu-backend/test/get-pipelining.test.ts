// GET is pipelined: CuServer keeps reading the backend's body into the second slice while the
// WRITE of the first is still on the wire. Made deterministic with a gate: the client's agent is
// reached over TCP through a proxy that holds the gateway's bytes back from the moment the first
// slice is full until CuServer asks the body for the first byte of the next one. A CuServer that
// waited for each WRITE before reading on would never ask (the gate opens by itself after a
// while so such a failure ends instead of hanging), and the WRITE would show as completed.
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  DelegatingBackend,
  type GetObjectInput,
  type GetObjectOutput,
  type RequestContext,
} from '@vgwrdma/backend-contract';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { BufferPool } from '@vgwrdma/bufferpool';
import { RdmaServer } from '@vgwrdma/rdma-ffi';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CuServer } from '../src/index.js';
import { ClientProcess } from './client-process.js';
import { granted } from './granted.js';

const MiB = 1 << 20;
const PIECE = 256 * 1024;

/** A TCP proxy to the agent whose gateway→agent direction can be held shut. */
class GatedProxy {
  private held: { up: Socket; data: Buffer }[] = [];
  private shut = false;
  readonly server: Server;
  constructor(agentPort: number) {
    this.server = createServer((down) => {
      const up = connect(agentPort, '127.0.0.1');
      for (const s of [up, down]) s.on('error', () => {});
      down.on('data', (data) => (this.shut ? this.held.push({ up, data }) : up.write(data)));
      up.on('data', (d) => down.write(d));
      up.on('close', () => down.destroy());
      down.on('close', () => up.destroy());
    });
  }
  listen(): Promise<number> {
    return new Promise((r) =>
      this.server.listen(0, '127.0.0.1', () => r((this.server.address() as { port: number }).port)),
    );
  }
  close(): void {
    this.shut = false;
    this.server.close();
  }
  hold(): void {
    this.shut = true;
  }
  open(): void {
    this.shut = false;
    for (const { up, data } of this.held.splice(0)) up.write(data);
  }
}

/**
 * Serves `data` in 256 KiB pieces and calls `onPiece(i)` exactly when CuServer asks for piece i:
 * the body's async iterator is a generator (no read-ahead, unlike a Readable's internal buffer).
 */
class PieceBackend extends DelegatingBackend {
  data = Buffer.alloc(0);
  onPiece: (i: number) => void = () => {};
  override async getObject(_c: RequestContext, input: GetObjectInput): Promise<GetObjectOutput> {
    const { data, onPiece } = this;
    const body = new Readable({ read() {} });
    Object.defineProperty(body, Symbol.asyncIterator, {
      value: async function* () {
        for (let i = 0; i * PIECE < data.length; i++) {
          onPiece(i);
          yield data.subarray(i * PIECE, (i + 1) * PIECE);
        }
      },
    });
    return { key: input.key, etag: '"e"', size: data.length, lastModified: new Date(), metadata: {}, body };
  }
}

describe('GET pipelining', () => {
  let client: ClientProcess;
  let dir: string;
  let server: RdmaServer;
  let backend: PieceBackend;
  let cu: CuServer;
  let proxy: GatedProxy;
  let proxyPort: number;

  beforeAll(async () => {
    client = await ClientProcess.start({ allowDirect: false });
    dir = await mkdtemp(join(tmpdir(), 'cu-getpipe-'));
    backend = new PieceBackend(await PosixBackend.open({ root: join(dir, 'root') }));
    server = new RdmaServer({ channels: 2, allowDirect: false });
    cu = new CuServer(
      { server, pool: BufferPool.create(server, { count: 1, size: 2 * MiB }), chunkSize: MiB },
      backend,
    );
    proxy = new GatedProxy(client.agentPort);
    proxyPort = await proxy.listen();
  });
  afterAll(async () => {
    proxy?.close();
    await cu?.shutdown();
    await client?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reads the next slice from the backend while the previous WRITE is in flight', async () => {
    const size = 3 * MiB;
    backend.data = Buffer.alloc(size);
    for (let i = 0; i < size; i++) backend.data[i] = (i * 7 + 11) & 0xff;
    const { region } = await client.alloc(size);
    const t = { ...parseRdmaToken(await client.token(region, 0, size, 'get')), dctn: proxyPort };
    const completed = () => server.stats().tcpTransfers;
    const before = completed();
    const piecesPerSlice = MiB / PIECE;
    let seen: { inFlight: number; completed: number } | undefined;
    let fallback: NodeJS.Timeout | undefined;
    backend.onPiece = (i) => {
      if (i === piecesPerSlice - 1) {
        proxy.hold(); // the first slice is about to be full: its WRITE will be held on the wire
        fallback = setTimeout(() => proxy.open(), 1000);
      }
      if (i === piecesPerSlice) {
        seen = { inFlight: server.inFlight, completed: completed() - before };
        clearTimeout(fallback);
        proxy.open();
      }
    };
    const ctx: RequestContext = {
      account: { access: 'a', role: 'admin' },
      requestId: 'pipe',
      signal: new AbortController().signal,
      rdma: granted({ token: t, scheme: 'token' }),
    };
    const out = await cu.getObject(ctx, { bucket: 'any', key: 'k' });
    expect(seen).toEqual({ inFlight: 1, completed: 0 });
    expect(out.responseHeaders?.['x-amz-rdma-bytes']).toBe(String(size));
    expect(await client.hash(region)).toBe(createHash('md5').update(backend.data).digest('hex'));
  });
});
