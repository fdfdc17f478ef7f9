// The benchmark plan: for each size, one Runner per mode (two with --compare, run alternately
// A B A B so both sides see the same machine noise), n iterations of PUT then GET (or only one
// of them), verification, and per-pair RDMA/std-s3 ratios for --compare.

import { CreateBucketCommand, HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { formatByteSize } from '@vgwrdma/cli-options';
import { DEFAULT_CONCURRENCY, DEFAULT_PART_SIZE } from '@vgwrdma/cuobjclient';
import { TOKEN_CAPACITY } from '@vgwrdma/rdma-protocol';
import type { Config } from './flags.js';
import type { PartSettings } from './managed-transports.js';
import type { Iteration, PairRatios, RunResult } from './result.js';
import { Runner } from './runner.js';
import { median } from './stats.js';
import type { Mode } from './transports.js';

/** What the CLI is told while a run goes on (live progress, per-iteration lines). */
export interface BenchObserver {
  starting?(text: string): void;
  /** The bucket did not exist and was created (the original prints a line for it). */
  createdBucket?(bucket: string): void;
  iteration?(
    mode: Mode,
    size: number,
    direction: 'put' | 'get',
    index: number,
    n: number,
    it: Iteration,
  ): void;
}

/** HeadBucket, and CreateBucket when it does not exist; true when this call created it. */
export async function ensureBucket(s3: S3Client, bucket: string): Promise<boolean> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
    return false;
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status !== 404) throw err;
  }
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    return true;
  } catch (err) {
    if ((err as { name?: string }).name !== 'BucketAlreadyOwnedByYou') throw err;
    return false;
  }
}

/** Object keys of one configuration: one per worker, suffixed by size in sweeps and by mode in comparisons. */
export function keysFor(config: Config, size: number, mode: Mode): string[] {
  let base = config.key;
  if (config.sizes && config.sizes.length > 1) base += `-${formatByteSize(size)}`;
  if (config.compare && !config.getOnly) base += `-${mode}`;
  return config.concurrency === 1
    ? [base]
    : Array.from({ length: config.concurrency }, (_, i) => `${base}-${i}`);
}

export function modesOf(config: Config): Mode[] {
  if (config.compare) return ['rdma', 'std-s3'];
  return [config.stdS3 ? 'std-s3' : 'rdma'];
}

/**
 * Managed transfers when -part-size or -part-concurrency is given, or the object is larger than
 * one session can move (the token capacity): the SDK's defaults fill in what is not given.
 */
export function partsOf(config: Config, size: number): { parts?: PartSettings } {
  if (config.partSize === undefined && config.partConcurrency === undefined && size <= TOKEN_CAPACITY)
    return {};
  return {
    parts: {
      partSize: config.partSize ?? DEFAULT_PART_SIZE,
      concurrency: config.partConcurrency ?? DEFAULT_CONCURRENCY,
    },
  };
}

/** Runs every configuration; resolves with one result per mode and size, in run order. */
export async function runBench(
  config: Config,
  s3: S3Client,
  observer: BenchObserver = {},
): Promise<RunResult[]> {
  if (await ensureBucket(s3, config.bucket)) observer.createdBucket?.(config.bucket);
  const results: RunResult[] = [];
  for (const size of config.sizes ?? [config.size]) {
    const runners: Runner[] = [];
    try {
      for (const mode of modesOf(config)) {
        runners.push(
          await Runner.open({
            mode,
            s3,
            endpoint: config.endpoint,
            bucket: config.bucket,
            keys: keysFor(config, size, mode),
            size,
            ...(mode === 'rdma' ? { memory: config.memory } : {}),
            ...(config.serverPid === undefined ? {} : { serverPid: config.serverPid }),
            ...partsOf(config, size),
          }),
        );
      }
      results.push(...(await runSize(config, runners, observer)));
    } finally {
      for (const r of runners) await r[Symbol.asyncDispose]();
    }
  }
  return results;
}

async function runSize(config: Config, runners: Runner[], observer: BenchObserver): Promise<RunResult[]> {
  const ratios: Record<'put' | 'get', number[]> = { put: [], get: [] };
  for (const r of runners) {
    if (config.getOnly) await r.loadReference();
    else r.fill();
  }
  const directions = (['put', 'get'] as const).filter((d) =>
    d === 'put' ? !config.getOnly : !config.putOnly,
  );
  for (let i = 1; i <= config.warmup; i++) {
    for (const d of directions) {
      for (const r of runners) {
        observer.starting?.(
          `${r.mode} ${formatByteSize(r.options.size)} ${d.toUpperCase()} warm-up ${i}/${config.warmup}`,
        );
        await r.warm(d);
      }
    }
  }
  for (let i = 1; i <= config.n; i++) {
    for (const d of directions) {
      const gbps: number[] = [];
      for (const r of runners) {
        observer.starting?.(
          `${r.mode} ${formatByteSize(r.options.size)} ${d.toUpperCase()} ${i}/${config.n}`,
        );
        const it = await r.iterate(d);
        observer.iteration?.(r.mode, r.options.size, d, i, config.n, it);
        gbps.push(it.gbps);
      }
      if (gbps.length === 2) ratios[d].push((gbps[0] as number) / (gbps[1] as number));
    }
  }
  if (config.putOnly) for (const r of runners) await r.verifyStored();
  const results = runners.map((r) => r.result());
  if (runners.length === 2 && results[0]) results[0] = { ...results[0], vsStdS3: pairRatios(ratios) };
  return results;
}

function pairRatios(r: Record<'put' | 'get', number[]>): PairRatios {
  return {
    ...(r.put.length ? { put: { median: median(r.put), pairs: r.put } } : {}),
    ...(r.get.length ? { get: { median: median(r.get), pairs: r.get } } : {}),
  };
}
