// The cuobjtest program as a function of (argv, env, io) → exit status, so tests can drive it.
// Output: the original vgwrdma cuobjtest's text on stdout (text-report.ts), or one JSON document
// with --json (an object for a single run, an array for sweeps and --compare); what failed on
// stderr; progress on a TTY's stderr only.

import { writeFile } from 'node:fs/promises';
import { S3Client } from '@aws-sdk/client-s3';
import { runBench } from './bench.js';
import { explainError } from './explain-error.js';
import { type Config, parseFlags, UsageError, usage } from './flags.js';
import { renderReport } from './plot-report.js';
import { type ProgressTarget, progressLine } from './progress.js';
import type { RunResult } from './result.js';
import { compareLines, failureLines, runBlock } from './text-report.js';
import { trustOptions } from './tls-trust.js';

export interface CliIO {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: ProgressTarget;
}

export function s3ClientFor(c: Config): S3Client {
  return new S3Client({
    endpoint: c.endpoint,
    region: c.region,
    forcePathStyle: true,
    credentials: { accessKeyId: c.access, secretAccessKey: c.secret },
    ...trustOptions(c.caBundle),
    // Plain bodies for std-s3 (no aws-chunked framing, no SDK CRC pass) so both paths move the same bytes.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export async function run(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CliIO,
): Promise<number> {
  let config: Config;
  try {
    config = parseFlags(argv, env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`cuobjtest: ${err.message}\nRun 'cuobjtest -help' for usage.\n`);
    return err.exitCode;
  }
  if (config.help) {
    io.stdout.write(usage());
    return 0;
  }
  if (config.report !== undefined && renderReport(config.report, []) === undefined) {
    io.stderr.write(`cuobjtest: -report must name a .svg or .html file, got '${config.report}'\n`);
    return 2;
  }
  let s3: S3Client;
  try {
    s3 = s3ClientFor(config);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr.write(`cuobjtest: ${err.message}\n`);
    return err.exitCode;
  }
  const progress = progressLine(io.stderr, env, config.json);
  let results: RunResult[];
  try {
    results = await runBench(config, s3, {
      starting: (text) => progress.show(text),
      createdBucket: (bucket) => {
        progress.clear();
        if (!config.json) io.stdout.write(`cuobjtest: created bucket ${JSON.stringify(bucket)}\n`);
      },
    });
  } catch (err) {
    progress.clear();
    io.stderr.write(`cuobjtest: ${explainError(err, config)}\n`);
    return 1;
  } finally {
    s3.destroy();
  }
  progress.clear();
  if (config.json) {
    io.stdout.write(`${JSON.stringify(results.length === 1 ? results[0] : results, null, 2)}\n`);
  } else {
    for (const r of results) io.stdout.write(`${[...runBlock(r), ...compareLines(r)].join('\n')}\n`);
  }
  for (const r of results) {
    const lines = failureLines(r);
    if (lines.length > 0) io.stderr.write(`${lines.join('\n')}\n`);
  }
  if (config.report !== undefined) await writeFile(config.report, renderReport(config.report, results) ?? '');
  return results.every((r) => r.verified) ? 0 : 1;
}
