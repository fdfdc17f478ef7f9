#!/usr/bin/env node
// The `vgwrdma` command: a CommonJS launcher for the ESM entry (dist/main.js). It exists for one
// setting: libuv's thread pool (every upload's hashing and file I/O, the RDMA slices' writes and
// Complete's copies) takes its size from UV_THREADPOOL_SIZE once, when the pool first starts, and
// Node's ESM loader starts the pool before an ESM entry's first line runs, so main.js cannot raise
// it. A CommonJS file's first line runs before anything has used the pool: here the size is set to
// one thread per core, 4 to 16 (what `npm start` sets), unless UV_THREADPOOL_SIZE is already set,
// then the ESM entry is imported and runs as before.
'use strict';

const { availableParallelism } = require('node:os');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

if (process.env.UV_THREADPOOL_SIZE === undefined || process.env.UV_THREADPOOL_SIZE === '') {
  process.env.UV_THREADPOOL_SIZE = String(Math.min(16, Math.max(4, availableParallelism())));
}

import(pathToFileURL(join(__dirname, '..', 'dist', 'main.js')).href).catch((error) => {
  process.stderr.write(
    `vgwrdma: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
