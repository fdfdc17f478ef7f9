#!/usr/bin/env node
// The `vgwrdma` executable: run the gateway with this process's arguments and environment, and
// exit with the status run() returns (0 after a graceful shutdown, 2 for a bad command line).
import { run } from './run.js';

run(process.argv.slice(2), process.env).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `vgwrdma: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
