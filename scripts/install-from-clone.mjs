#!/usr/bin/env node
// npm run install:clone -- (-g | --app DIR) [PACKAGE…]: installs this clone's packages as npm
// would from a registry, until they are on the public one. It packs the release
// (scripts/release-pack.mjs, into .release/), works out which of our tarballs the named packages
// need (their `@vgwrdma/*` dependencies, transitively, and the per-platform native package built
// here), and runs one `npm install` with those tarballs and any other named package (say
// `@aws-sdk/client-s3`, fetched from the registry as usual). Without PACKAGE: `vgwrdma` and
// `@vgwrdma/cuobjtest`. Build first (`npm run build`). `--print` shows the npm command only.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishablePackages } from './release/workspace.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE =
  'usage: npm run install:clone -- (-g | --app DIR) [--out DIR] [--print] [PACKAGE…]\n' +
  '  -g          install globally (npm install -g), as `npm install -g vgwrdma` will\n' +
  '  --app DIR   install into the npm project in DIR (made if missing), as `npm install` will\n' +
  '  --out DIR   where the tarballs go (default .release/)\n' +
  '  PACKAGE     our packages (vgwrdma, @vgwrdma/…) and any registry package; default: vgwrdma @vgwrdma/cuobjtest';

function fail(message) {
  console.error(`install:clone: ${message}`);
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { global: false, app: undefined, out: join(ROOT, '.release'), print: false, names: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (!v || v.startsWith('-')) fail(`${arg} needs a directory\n${USAGE}`);
      return resolve(v);
    };
    if (arg === '-g' || arg === '--global') opts.global = true;
    else if (arg === '--app') opts.app = value();
    else if (arg === '--out') opts.out = value();
    else if (arg === '--print') opts.print = true;
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (arg.startsWith('-')) fail(`unknown flag ${arg}\n${USAGE}`);
    else opts.names.push(arg);
  }
  if (opts.global === (opts.app !== undefined)) fail(`give -g or --app DIR (one of them)\n${USAGE}`);
  if (opts.names.length === 0) opts.names = ['vgwrdma', '@vgwrdma/cuobjtest'];
  return opts;
}

/** A spec's package name (`@aws-sdk/client-s3@3`, `koffi@2` → without the version). */
function nameOf(spec) {
  const at = spec.indexOf('@', 1);
  return at < 0 ? spec : spec.slice(0, at);
}

const ours = (name) => name === 'vgwrdma' || name.startsWith('@vgwrdma/');

/** `names` and every package of ours they depend on (optional ones only where packed). */
function closure(names, manifests, packed) {
  const out = new Set();
  const visit = (name) => {
    if (out.has(name)) return;
    const m = manifests.get(name);
    if (!m) fail(`${name} is no publishable package of this workspace`);
    out.add(name);
    for (const dep of Object.keys(m.dependencies ?? {})) if (ours(dep)) visit(dep);
    for (const dep of Object.keys(m.optionalDependencies ?? {})) if (ours(dep) && packed.has(dep)) visit(dep);
  };
  for (const n of names) visit(n);
  return [...out].sort();
}

const opts = parseArgs(process.argv.slice(2));
const workspace = publishablePackages(ROOT);
const manifests = new Map(
  workspace.map((p) => [p.name, JSON.parse(readFileSync(join(p.dir, 'package.json'), 'utf8'))]),
);
const requested = opts.names.filter((s) => ours(nameOf(s))).map(nameOf);
const others = opts.names.filter((s) => !ours(nameOf(s)));

let rows;
if (opts.print) {
  rows = workspace
    .filter((p) => p.missing.length === 0)
    .map((p) => ({
      name: p.name,
      file: join(opts.out, `${p.name.replace(/^@/, '').replace('/', '-')}-${p.version}.tgz`),
    }));
} else {
  const pack = spawnSync(
    process.execPath,
    [join(ROOT, 'scripts', 'release-pack.mjs'), '--out', opts.out, '--json'],
    {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  if (pack.status !== 0) fail(`release:pack exited with ${pack.status}`);
  rows = JSON.parse(pack.stdout);
}
const files = new Map(rows.map((r) => [r.name, r.file]));
const tarballs = closure(requested, manifests, files).map((name) => {
  const file = files.get(name);
  if (!file) fail(`${name} was not packed (build it: npm run build)`);
  return file;
});

const args = ['install', ...(opts.global ? ['-g'] : []), '--no-fund', '--no-audit', ...tarballs, ...others];
const cwd = opts.app ?? process.cwd();
console.log(`npm ${args.join(' ')}${opts.app ? `   (in ${opts.app})` : ''}`);
if (opts.print) process.exit(0);
if (opts.app) {
  mkdirSync(opts.app, { recursive: true });
  if (!existsSync(join(opts.app, 'package.json'))) spawnSync('npm', ['init', '-y'], { cwd, stdio: 'ignore' });
}
const npm = spawnSync('npm', args, { cwd, stdio: 'inherit' });
process.exit(npm.status ?? 1);
