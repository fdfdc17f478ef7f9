#!/usr/bin/env node
// npm run release:pack [-- --out DIR] [--json]: one tarball per publishable workspace package,
// all in one folder (default .release/), packed by pnpm so `workspace:*` becomes the real version
// and publishConfig.exports replaces the workspace-only `source` condition. Packages are packed
// from their built dist/ (npm run build first). A per-platform native package whose library is
// not built here is skipped with a line saying so; any other package with missing files is an
// error. Ends with a table of name, version and size (or, with --json, the same as JSON).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishablePackages } from './release/workspace.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE = 'usage: node scripts/release-pack.mjs [--out DIR] [--json]';

function parseArgs(argv) {
  const opts = { out: join(ROOT, '.release'), json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') opts.json = true;
    else if (arg === '--out') {
      const value = argv[++i];
      if (!value || value.startsWith('--')) fail(`--out needs a directory\n${USAGE}`);
      opts.out = resolve(value);
    } else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else fail(`unknown flag ${arg}\n${USAGE}`);
  }
  return opts;
}

function fail(message) {
  console.error(`release:pack: ${message}`);
  process.exit(2);
}

/** pnpm's tarball name: `@scope/name` → `scope-name-<version>.tgz`. */
function tarballName(pkg) {
  return `${pkg.name.replace(/^@/, '').replace('/', '-')}-${pkg.version}.tgz`;
}

const opts = parseArgs(process.argv.slice(2));
const all = publishablePackages(ROOT);
const toPack = [];
for (const pkg of all) {
  if (pkg.missing.length === 0) toPack.push(pkg);
  else if (pkg.platform)
    console.error(`skipping ${pkg.name}: not built on this machine (missing ${pkg.missing.join(', ')})`);
  else fail(`${pkg.name} is not built (missing ${pkg.missing.join(', ')}): run npm run build`);
}
if (toPack.length === 0) fail('nothing to pack');

mkdirSync(opts.out, { recursive: true });
for (const f of readdirSync(opts.out)) if (f.endsWith('.tgz')) rmSync(join(opts.out, f));

const filters = toPack.flatMap((p) => ['--filter', p.name]);
const packed = spawnSync(
  'npx',
  ['--yes', 'pnpm@10.34.9', '-r', ...filters, 'pack', '--pack-destination', opts.out],
  { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
if (packed.status !== 0) {
  process.stderr.write(packed.stdout ?? '');
  fail(`pnpm pack exited with ${packed.status}`);
}

const rows = toPack.map((p) => {
  const file = join(opts.out, tarballName(p));
  let bytes;
  try {
    bytes = statSync(file).size;
  } catch {
    fail(`pnpm pack wrote no ${tarballName(p)} for ${p.name}`);
  }
  return { name: p.name, version: p.version, file, bytes };
});

if (opts.json) console.log(JSON.stringify(rows, null, 2));
else printTable(rows);

function printTable(list) {
  const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
  const cells = list.map((r) => [r.name, r.version, kib(r.bytes)]);
  const head = ['package', 'version', 'size'];
  const width = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c) => c.map((v, i) => (i === 2 ? v.padStart(width[i]) : v.padEnd(width[i]))).join('  ');
  console.log(line(head));
  for (const c of cells) console.log(line(c));
  const total = list.reduce((s, r) => s + r.bytes, 0);
  console.log(`${list.length} tarballs in ${opts.out}, ${kib(total)} in all`);
}
