#!/usr/bin/env node
// The `cuobjtest` executable: run with this process's arguments and environment, exit with the
// status run() returns.
import { run } from './run.js';

run(process.argv.slice(2), process.env, { stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`cuobjtest: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
