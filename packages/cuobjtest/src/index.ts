// @vgwrdma/cuobjtest as a library: the CLI entry (run), its flag table, the benchmark plan and
// the result shape --json prints.

export { type BenchObserver, ensureBucket, keysFor, modesOf, runBench } from './bench.js';
export { type Config, CUOBJTEST_OPTIONS, FLAGS, parseFlags, UsageError, usage } from './flags.js';
export { renderHtml, renderReport, renderSvg } from './plot-report.js';
export type { DirectionResult, Iteration, PairRatios, RunResult } from './result.js';
export { type CliIO, run, s3ClientFor } from './run.js';
export { gbps, type LatencySummary, median, percentile, summarize } from './stats.js';
export type { Mode } from './transports.js';
