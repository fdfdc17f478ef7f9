#!/usr/bin/env node
// npm run install:clone -- (-g | --app DIR) [PACKAGE…]: installs this clone's packages as npm
// would from a registry, until they are on the public one. It packs the release
// (scripts/release-pack.mjs, into .release/), works out which of our tarballs the named packages
// need (their `@vgwrdma/*` dependencies, transitively, and the native package of this machine's
// platform), and runs one `npm install` with those tarballs and any other named package (say
// `@aws-sdk/client-s3`, fetched from the registry as usual). Without PACKAGE: `vgwrdma` and
// `@vgwrdma/cuobjtest`. Build first (`npm run build`). `--print` shows the npm command only;
// `--from DIR` installs the tarballs an earlier pack left in DIR instead of packing again.
// Relative paths are taken from the folder `npm run` was started in (INIT_CWD), not the clone's.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publishablePackages } from './release/workspace.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USAGE =
  'usage: npm run install:clone -- (-g | --app DIR) [--out DIR | --from DIR] [--print] [PACKAGE…]\n' +
  '  -g          install globally (npm install -g), as `npm install -g vgwrdma` will\n' +
  '  --app DIR   install into the npm project in DIR (made if missing), as `npm install` will\n' +
  '  --out DIR   where the tarballs go (default .release/)\n' +
  '  --from DIR  install the tarballs already in DIR (an earlier pack) instead of packing\n' +
  '  PACKAGE     our packages (vgwrdma, @vgwrdma/…) and any registry package; default: vgwrdma @vgwrdma/cuobjtest';

function fail(message) {
  console.error(`install:clone: ${message}`);
  process.exit(2);
}

/** The folder the user ran `npm run` in: npm itself runs the script in the clone's root. */
const USER_CWD = process.env.INIT_CWD ?? process.cwd();

/** Our options npm keeps for itself when they come before `--` (it exports them as npm_config_*). */
const TAKEN_BY_NPM = { global: '-g', app: '--app', out: '--out', from: '--from', print: '--print' };

function takenByNpm() {
  const taken = Object.entries(TAKEN_BY_NPM).filter(([k]) => process.env[`npm_config_${k}`] === 'true');
  if (taken.length === 0) return '';
  const flags = taken.map(([, flag]) => flag).join(' ');
  return `\nnpm took ${flags} for itself: put the options after --, as in npm run install:clone -- -g`;
}

function parseArgs(argv) {
  const opts = { global: false, app: undefined, out: undefined, from: undefined, print: false, names: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (!v || v.startsWith('-')) fail(`${arg} needs a directory\n${USAGE}`);
      return resolve(USER_CWD, v);
    };
    if (arg === '-g' || arg === '--global') opts.global = true;
    else if (arg === '--app') opts.app = value();
    else if (arg === '--out') opts.out = value();
    else if (arg === '--from') opts.from = value();
    else if (arg === '--print') opts.print = true;
    else if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (arg.startsWith('-')) fail(`unknown flag ${arg}\n${USAGE}`);
    else opts.names.push(arg);
  }
  if (opts.global === (opts.app !== undefined))
    fail(`give -g or --app DIR (one of them)${takenByNpm()}\n${USAGE}`);
  if (opts.out !== undefined && opts.from !== undefined) fail(`give --out or --from, not both\n${USAGE}`);
  if (opts.from !== undefined && !existsSync(opts.from)) fail(`--from ${opts.from}: no such folder`);
  opts.out ??= opts.from ?? join(ROOT, '.release');
  if (opts.names.length === 0) opts.names = ['vgwrdma', '@vgwrdma/cuobjtest'];
  return opts;
}

/** A spec's package name (`@aws-sdk/client-s3@3`, `koffi@2` → without the version). */
function nameOf(spec) {
  const at = spec.indexOf('@', 1);
  return at < 0 ? spec : spec.slice(0, at);
}

const ours = (name) => name === 'vgwrdma' || name.startsWith('@vgwrdma/');

/** Whether a per-platform package (`os`/`cpu` fields) runs here; npm refuses the others. */
function fitsHere(manifest) {
  return (
    (manifest.os ?? [process.platform]).includes(process.platform) &&
    (manifest.cpu ?? [process.arch]).includes(process.arch)
  );
}

/** `names` and every package of ours they depend on (optional ones where packed and fit for here). */
function closure(names, manifests, packed) {
  const out = new Set();
  const visit = (name) => {
    if (out.has(name)) return;
    const m = manifests.get(name);
    if (!m) fail(`${name} is no publishable package of this workspace`);
    out.add(name);
    for (const dep of Object.keys(m.dependencies ?? {})) if (ours(dep)) visit(dep);
    for (const dep of Object.keys(m.optionalDependencies ?? {}))
      if (ours(dep) && packed.has(dep) && fitsHere(manifests.get(dep) ?? {})) visit(dep);
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
// Before packing (a minute or more): a misspelt name of ours is a usage error now, not later.
for (const name of requested)
  if (!manifests.has(name)) fail(`${name} is no publishable package of this workspace`);

/** The tarballs release:pack would write to `dir`, for those of the workspace that are there. */
function tarballsIn(dir, present) {
  return workspace
    .map((p) => ({
      name: p.name,
      file: join(dir, `${p.name.replace(/^@/, '').replace('/', '-')}-${p.version}.tgz`),
    }))
    .filter((r) => present(r));
}

let rows;
if (opts.from !== undefined) rows = tarballsIn(opts.from, (r) => existsSync(r.file));
else if (opts.print) {
  const built = new Set(workspace.filter((p) => p.missing.length === 0).map((p) => p.name));
  rows = tarballsIn(opts.out, (r) => built.has(r.name));
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
  if (!file)
    fail(
      opts.from === undefined
        ? `${name} was not packed (build it: npm run build)`
        : `${name} is not in ${opts.from} (pack it: npm run release:pack -- --out ${opts.from})`,
    );
  return file;
});

const args = ['install', ...(opts.global ? ['-g'] : []), '--no-fund', '--no-audit', ...tarballs, ...others];
const cwd = opts.app ?? USER_CWD;
console.log(`npm ${args.join(' ')}${opts.app ? `   (in ${opts.app})` : ''}`);
if (opts.print) process.exit(0);
if (opts.app) {
  mkdirSync(opts.app, { recursive: true });
  if (!existsSync(join(opts.app, 'package.json'))) spawnSync('npm', ['init', '-y'], { cwd, stdio: 'ignore' });
}
const npm = spawnSync('npm', args, { cwd, stdio: 'inherit' });
process.exit(npm.status ?? 1);
