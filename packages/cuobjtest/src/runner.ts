// One measured configuration (mode × size × concurrency): N workers, each with its own transport
// and object key, moving data in lock-step iterations. Data is random; every GET is checked by
// CRC32 of what was read back against what was written (the buffer is zeroed before each GET,
// so a transfer that moved nothing cannot pass; with --memory cuda both are read on the device).
// Checks run outside the timed region.

import { performance } from 'node:perf_hooks';
import type { S3Client } from '@aws-sdk/client-s3';
import { hostOptionsFromEnv } from '@vgwrdma/cuobjclient';
import { cpuSpent, sampleCpu } from './cpu.js';
import type { PartSettings } from './managed-transports.js';
import type { DirectionResult, Iteration, ManagedDirection, RunResult } from './result.js';
import { gbps, summarize } from './stats.js';
import {
  crcOfObject,
  type Memory,
  type Mode,
  type Moved,
  openTransport,
  type Transport,
} from './transports.js';

interface RunnerOptions {
  readonly mode: Mode;
  readonly s3: S3Client;
  readonly endpoint: string;
  readonly bucket: string;
  readonly keys: readonly string[];
  readonly size: number;
  /** 'rdma' only: where the session's memory is (default 'host'). */
  readonly memory?: Memory;
  /** A server process on this host whose CPU time each iteration also records. */
  readonly serverPid?: number;
  /** Managed transfers (multipart / ranged GETs) with these parts; absent: one request per object. */
  readonly parts?: PartSettings;
}

type Direction = 'put' | 'get';

export class Runner implements AsyncDisposable {
  private readonly latencies: Record<Direction, number[]> = { put: [], get: [] };
  private readonly iterations: Record<Direction, Iteration[]> = { put: [], get: [] };
  private readonly staging: Record<Direction, number[]> = { put: [], get: [] };
  private readonly managed: Record<Direction, Moved[]> = { put: [], get: [] };
  private readonly failures: string[] = [];
  private expected: number[] = [];
  private verifiedOnce = false;

  private constructor(
    readonly options: RunnerOptions,
    private readonly workers: Transport[],
  ) {}

  static async open(options: RunnerOptions): Promise<Runner> {
    const workers: Transport[] = [];
    try {
      for (const _ of options.keys)
        workers.push(
          await openTransport(
            options.mode,
            options.s3,
            options.bucket,
            options.size,
            options.memory,
            options.parts,
          ),
        );
    } catch (err) {
      for (const w of workers) await w[Symbol.asyncDispose]();
      throw err;
    }
    return new Runner(options, workers);
  }

  get mode(): Mode {
    return this.options.mode;
  }

  /** Fresh random data in every worker's buffer; remembers its CRC32. */
  fill(): void {
    this.expected = this.workers.map((w) => w.fillRandom());
  }

  /** -get-only: the reference CRC32 of each existing object, by an untimed plain-HTTP GET. */
  async loadReference(): Promise<void> {
    this.expected = [];
    for (const key of this.options.keys)
      this.expected.push(await crcOfObject(this.options.s3, this.options.bucket, key, this.options.size));
  }

  /** One untimed iteration in `direction` (warm-up): every worker at once, nothing recorded. */
  async warm(direction: Direction): Promise<void> {
    await Promise.all(
      this.workers.map((w, i) => {
        const key = this.options.keys[i] as string;
        return direction === 'put' ? w.put(key) : w.get(key);
      }),
    );
  }

  /** One timed iteration in `direction`: every worker at once. */
  async iterate(direction: Direction): Promise<Iteration> {
    if (direction === 'get') for (const w of this.workers) w.clear();
    const cpuBefore = sampleCpu(this.options.serverPid);
    const start = performance.now();
    const each = await Promise.all(
      this.workers.map(async (w, i) => {
        const key = this.options.keys[i] as string;
        const t0 = performance.now();
        const moved = await (direction === 'put' ? w.put(key) : w.get(key));
        if (moved.stagingMs !== undefined) this.staging[direction].push(moved.stagingMs);
        if (moved.parts !== undefined) this.managed[direction].push(moved);
        return performance.now() - t0;
      }),
    );
    const wall = performance.now() - start;
    const cpu = cpuSpent(cpuBefore, sampleCpu(this.options.serverPid));
    this.latencies[direction].push(...each);
    const checksum =
      direction === 'get' ? this.verifyBuffers(`GET iteration ${this.iterations.get.length + 1}`) : undefined;
    const it: Iteration = {
      latencyMs: wall,
      gbps: gbps(this.options.size * this.workers.length, wall),
      clientCpuMs: cpu.clientMs,
      ...(cpu.serverMs === undefined ? {} : { serverCpuMs: cpu.serverMs }),
      ...(checksum === undefined ? {} : { checksum }),
    };
    this.iterations[direction].push(it);
    return it;
  }

  /** -put-only: checks each stored object by an untimed plain-HTTP GET. */
  async verifyStored(): Promise<void> {
    for (const [i, key] of this.options.keys.entries()) {
      const crc = await crcOfObject(this.options.s3, this.options.bucket, key, this.options.size);
      this.check(crc, i, `stored object ${key}`);
    }
  }

  /** Checks every worker's buffer; the iteration's status as the original prints it. */
  private verifyBuffers(what: string): string {
    let status = 'OK';
    for (const [i, w] of this.workers.entries()) {
      const actual = w.crc();
      if (!this.check(actual, i, `${what}, ${this.options.keys[i]}`) && status === 'OK')
        status = `MISMATCH put=${hex8(this.expected[i] ?? 0)} get=${hex8(actual)}`;
    }
    return status;
  }

  /** Records a failure when `actual` is not the CRC32 written; true when it matches. */
  private check(actual: number, worker: number, what: string): boolean {
    this.verifiedOnce = true;
    const want = this.expected[worker];
    if (actual === want) return true;
    this.failures.push(
      `${what}: CRC32 ${hex(actual)} read back, ${want === undefined ? 'nothing' : hex(want)} written`,
    );
    return false;
  }

  result(): RunResult {
    const direction = (d: Direction): DirectionResult | undefined => {
      const its = this.iterations[d];
      if (its.length === 0) return undefined;
      const totalMs = its.reduce((a, b) => a + b.latencyMs, 0);
      const staged = this.staging[d];
      const cpuSum = (pick: (it: Iteration) => number | undefined) =>
        its.every((it) => pick(it) !== undefined)
          ? its.reduce((a, it) => a + (pick(it) as number), 0)
          : undefined;
      const clientCpuMs = cpuSum((it) => it.clientCpuMs);
      const serverCpuMs = cpuSum((it) => it.serverCpuMs);
      return {
        gbps: gbps(this.options.size * this.workers.length * its.length, totalMs),
        latencyMs: summarize(this.latencies[d]),
        iterations: its,
        ...(staged.length ? { stagingMs: summarize(staged) } : {}),
        ...(clientCpuMs === undefined ? {} : { clientCpuMs }),
        ...(serverCpuMs === undefined ? {} : { serverCpuMs }),
      };
    };
    const managedOf = (d: Direction): ManagedDirection | undefined => {
      const m = this.managed[d];
      if (m.length === 0) return undefined;
      return {
        parts: m[0]?.parts ?? 0,
        retries: m.reduce((a, x) => a + (x.retries ?? 0), 0),
        ...(m.at(-1)?.etag === undefined ? {} : { etag: m.at(-1)?.etag as string }),
      };
    };
    const parts = this.options.parts;
    const mput = managedOf('put');
    const mget = managedOf('get');
    const managed =
      parts === undefined
        ? undefined
        : {
            partSize: parts.partSize,
            partConcurrency: parts.concurrency,
            ...(mput ? { put: mput } : {}),
            ...(mget ? { get: mget } : {}),
          };
    const device = this.workers[0]?.describe();
    const put = direction('put');
    const get = direction('get');
    return {
      mode: this.options.mode,
      transport:
        this.options.mode === 'rdma' ? (hostOptionsFromEnv(process.env).provider ?? 'softnic') : 'http',
      memory: this.workers[0]?.memory ?? 'host',
      ...(device === undefined ? {} : { device }),
      sizeBytes: this.options.size,
      iterations: Math.max(this.iterations.put.length, this.iterations.get.length),
      concurrency: this.workers.length,
      endpoint: this.options.endpoint,
      bucket: this.options.bucket,
      ...(put ? { put } : {}),
      ...(get ? { get } : {}),
      ...(managed ? { managed } : {}),
      verified: this.verifiedOnce && this.failures.length === 0,
      ...(this.failures.length ? { failures: [...this.failures] } : {}),
    };
  }

  async [Symbol.asyncDispose](): Promise<void> {
    for (const w of this.workers) await w[Symbol.asyncDispose]();
  }
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}

function hex(n: number): string {
  return `0x${hex8(n)}`;
}
