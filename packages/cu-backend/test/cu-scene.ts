// Scaffolding of the CuServer tests: a request context as the gateway hands it (with the grant
// cu-middleware adds for a token), the descriptor of a token, an S3Error a call rejects with, the
// file's scene (a HostClient child and a PosixBackend on a fresh temp dir, with a bucket) and a
// CuServer whose RdmaServer records the channel of every transfer in one direction.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Backend, type RdmaDescriptor, type RequestContext, S3Error } from '@vgwrdma/backend-contract';
import { PosixBackend } from '@vgwrdma/backend-posix';
import { BufferPool } from '@vgwrdma/bufferpool';
import { type RdmaChannel, RdmaServer } from '@vgwrdma/rdma-ffi';
import { parseRdmaToken } from '@vgwrdma/rdma-protocol';
import { afterAll, beforeAll } from 'vitest';
import { CuServer, type CuServerOptions, type RdmaTransferEvent } from '../src/index.js';
import { ClientProcess } from './client-process.js';
import { granted } from './granted.js';

const MiB = 1 << 20;

/** The request context of an admin `access` (and, given a descriptor, of a granted RDMA request). */
export function contextOf(access: string, requestId: string) {
  return (rdma?: RdmaDescriptor, signal = new AbortController().signal): RequestContext => {
    const base = { account: { access, role: 'admin' as const }, requestId, signal };
    return rdma ? { ...base, rdma: granted(rdma) } : base;
  };
}

/** What cu-middleware would put on the context for this token. */
export function descriptor(token: string): RdmaDescriptor {
  return { token: parseRdmaToken(token), scheme: 'token' };
}

/** The S3Error `p` rejects with (anything else, or no rejection, fails). */
export async function rejection(p: Promise<unknown>): Promise<S3Error> {
  try {
    await p;
  } catch (e) {
    if (e instanceof S3Error) return e;
    throw e;
  }
  throw new Error('expected an S3Error');
}

export interface CuScene {
  client: ClientProcess;
  posix: PosixBackend;
}

export interface CuSceneOptions {
  /** The temp dir's name prefix. */
  prefix: string;
  /** A bucket created in the PosixBackend with `ctx` (left out: the file creates its own). */
  bucket?: { name: string; owner: string; ctx: () => RequestContext };
}

/**
 * Before the describe block's tests: a HostClient child and a PosixBackend on a fresh temp dir
 * (`set` receives them); after them the child is killed and the dir removed. The block's own
 * afterAll (a CuServer or backend shutdown), registered after this call, runs before that.
 */
export function cuScene(o: CuSceneOptions, set: (scene: CuScene) => void): void {
  let client: ClientProcess | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    client = await ClientProcess.start();
    dir = await mkdtemp(join(tmpdir(), o.prefix));
    const posix = await PosixBackend.open({ root: join(dir, 'root') });
    const b = o.bucket;
    if (b)
      await posix.createBucket(b.ctx(), {
        bucket: b.name,
        owner: b.owner,
        acl: { Owner: b.owner, Grantees: [] },
      });
    set({ client, posix });
  });
  afterAll(async () => {
    await client?.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
}

/** Which RdmaServer call moves a direction's data, and that direction's lanes option. */
const DIRECTIONS = {
  get: { handler: 'handleGet', option: 'getLanes' },
  put: { handler: 'handlePut', option: 'putLanes' },
} as const;

export interface LaneOptions {
  /** The direction's lanes setting (getLanes / putLanes); left out: the default. */
  lanes?: 1 | 2;
  channels?: number;
  buffers?: number;
}

/**
 * A CuServer over `backend` whose RdmaServer records the channel id of every transfer of
 * `direction` (WRITEs of a GET, READs of a PUT) in `lanes`, and its transfer events in `events`.
 * One client agent sends every request: the per-agent cap is the pool size.
 */
export function laneRecordingCu(backend: Backend, direction: keyof typeof DIRECTIONS, o: LaneOptions = {}) {
  const { handler, option } = DIRECTIONS[direction];
  const buffers = o.buffers ?? 2;
  const server = new RdmaServer({ channels: o.channels ?? 4, ioTimeoutMs: 3000 });
  const lanes: number[] = [];
  const handle = server[handler].bind(server);
  server[handler] = (t) => {
    lanes.push((t.channel as RdmaChannel).id);
    return handle(t);
  };
  const pool = BufferPool.create(server, { count: buffers, size: 4 * MiB, defaultWaitMs: 5000 });
  const options: CuServerOptions = {
    server,
    pool,
    chunkSize: MiB,
    maxPerAgent: buffers,
    ...(o.lanes ? { [option]: o.lanes } : {}),
  };
  const cu = new CuServer(options, backend);
  const events: RdmaTransferEvent[] = [];
  cu.onTransfer((e) => events.push(e));
  return { cu, server, lanes, events };
}
