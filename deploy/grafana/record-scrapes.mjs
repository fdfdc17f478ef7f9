#!/usr/bin/env node
// Records real scrapes for the dashboard picture: starts the built app (posix on a temp dir, RDMA
// over softnic, --metrics-port on loopback), drives it with the built cuobjtest — RDMA and plain
// HTTP PUT/GET of several sizes, in waves — and scrapes GET /metrics every INTERVAL seconds.
// Writes { intervalSeconds, scrapes: [{ t, text }] } as JSON to the file named by the first argument.
//
//   node deploy/grafana/record-scrapes.mjs /tmp/scrapes.json [seconds=90]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const APP = join(REPO, 'apps/vgwrdma/dist/main.js');
const CUOBJTEST = join(REPO, 'packages/cuobjtest/dist/main.js');
const CREDS = ['vgwrdma', 'vgwrdma-secret'];
const INTERVAL = 2;

const [out, secondsArg] = process.argv.slice(2);
if (!out) throw new Error('usage: record-scrapes.mjs OUT.json [seconds]');
const seconds = Number(secondsArg ?? 90);

const root = mkdtempSync(join(tmpdir(), 'vgwrdma-scrapes-'));
const app = spawn(
  process.execPath,
  [
    APP,
    '--port',
    '127.0.0.1:0',
    '-a',
    CREDS[0],
    '-s',
    CREDS[1],
    '--quiet',
    '--rdma-ip',
    '127.0.0.1',
    '--pool-buf-size',
    '16MiB',
    '--pool-buf-count',
    '4',
    '--metrics-port',
    '127.0.0.1:0',
    'posix',
    root,
  ],
  { stdio: ['ignore', 'pipe', 'inherit'] },
);
let banner = '';
const { endpoint, metrics } = await new Promise((done, fail) => {
  app.once('exit', (code) => fail(new Error(`the gateway exited (${code})`)));
  app.stdout.on('data', (b) => {
    banner += b;
    const e = /endpoint:\s+(\S+)/.exec(banner);
    const m = /metrics:\s+(\S+)/.exec(banner);
    if (e && m) done({ endpoint: e[1], metrics: m[1] });
  });
});

/** One cuobjtest run; resolves when it exits (failures are part of the picture, not fatal). */
function cuobjtest(args) {
  return new Promise((done) => {
    const c = spawn(
      process.execPath,
      [CUOBJTEST, '-endpoint', endpoint, '-access', CREDS[0], '-secret', CREDS[1], '-json', ...args],
      {
        stdio: 'ignore',
      },
    );
    c.once('exit', () => done());
  });
}

const WAVES = [
  ['-put-only', '-size', '4KiB', '-n', '60', '--concurrency', '4', '-std-s3'],
  ['-size', '8MiB', '-n', '6', '--concurrency', '2'],
  ['-size', '1MiB', '-n', '20', '-std-s3'],
  ['-size', '32MiB', '-n', '3', '--concurrency', '3'],
  ['-put-only', '-size', '4KiB', '-n', '40', '--concurrency', '8'],
  ['-get-only', '-size', '8MiB', '-n', '10', '--concurrency', '6'],
];

const scrapes = [];
const started = Date.now();
let stop = false;
const load = (async () => {
  for (let i = 0; !stop; i++) {
    await cuobjtest([...(WAVES[i % WAVES.length] ?? []), '-key', `wave-${i % WAVES.length}`]);
    // Misses and a missing bucket, for the 4xx panels.
    await fetch(`${endpoint}/no-such-bucket/x`).catch(() => {});
    await new Promise((r) => setTimeout(r, 500));
  }
})();
while (Date.now() - started < seconds * 1000) {
  const text = await (await fetch(metrics)).text();
  scrapes.push({ t: (Date.now() - started) / 1000, text });
  await new Promise((r) => setTimeout(r, INTERVAL * 1000));
}
stop = true;
await load;
app.kill('SIGTERM');
rmSync(root, { recursive: true, force: true });
writeFileSync(out, JSON.stringify({ intervalSeconds: INTERVAL, scrapes }));
console.log(`${scrapes.length} scrapes → ${out}`);
