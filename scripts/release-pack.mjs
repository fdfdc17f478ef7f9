#!/usr/bin/env node
// Stand-in for the release packer (`node scripts/release-pack.mjs --out DIR`): packs every
// non-private workspace package with pnpm (which rewrites workspace:* to real versions) into DIR
// and prints one tarball path per line. The release lane's full version replaces this file.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const PNPM = ['--yes', 'pnpm@10.34.9'];
const { values } = parseArgs({ options: { out: { type: 'string' } } });
if (!values.out) {
  console.error('release-pack: --out DIR is required');
  process.exit(2);
}
const out = resolve(values.out);
mkdirSync(out, { recursive: true });

const listed = JSON.parse(
  execFileSync('npx', [...PNPM, 'ls', '-r', '--depth', '-1', '--json'], { encoding: 'utf8' }),
);
for (const pkg of listed) {
  if (pkg.private) continue;
  execFileSync('npx', [...PNPM, 'pack', '--pack-destination', out], {
    cwd: pkg.path,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
for (const file of readdirSync(out).filter((f) => f.endsWith('.tgz'))) console.log(resolve(out, file));
