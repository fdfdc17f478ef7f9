#!/usr/bin/env node
// Packs the harness for a machine without the workspace or a package registry (the GPU device
// machine): esbuild bundles of run.mjs, the gateway and s3rver child scripts and cuobjtest's bin
// into one directory, with koffi (native, kept external), the native shim library and, unless
// --no-node, this Node binary (gzip-compressed). Run `npm run build` first.
//   node bench/device/bundle.mjs [--out .carry/benchdev] [--no-node]
// There: gunzip node.gz && chmod +x node &&
//        VGWRDMA_SHIM_DIR=$PWD ./node run.mjs --bundled --quick --out results --label '…'
//        (ETag modes: VGWRDMA_SHIM_DIR=$PWD ./node etag-modes.mjs --bundled --out results)
// GPU memory (issues 10, 24), from the repository root there: sh .carry/benchdev/run-gpu.sh
//   (staging overlap alone: GPU_ONLY=overlap sh .carry/benchdev/run-gpu.sh; managed transfers alone,
//   host and GPU memory, 1, 4 and 16 GiB: GPU_ONLY=managed sh .carry/benchdev/run-gpu.sh)

import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: join(REPO, '.carry/benchdev') },
    'no-node': { type: 'boolean' },
  },
});
// esbuild comes with tsup (a devDependency of every package)
const tsup = realpathSync(join(REPO, 'packages/cuobjtest/node_modules/tsup/package.json'));
const esbuild = createRequire(tsup)('esbuild');

const ENTRIES = {
  'run.mjs': 'bench/run.mjs',
  'etag-modes.mjs': 'bench/etag-modes.mjs',
  'gateway-child.mjs': 'packages/test-kit/src/gateway-child.mjs',
  's3rver-child.mjs': 'bench/lib/s3rver-child.mjs',
  'cuobjtest.mjs': 'packages/cuobjtest/dist/main.js',
  'gpu-roundtrip.mjs': 'bench/device/gpu-roundtrip.mjs',
  'gpu-overlap.mjs': 'bench/device/gpu-overlap.mjs',
  'managed.mjs': 'bench/managed.mjs',
};

rmSync(args.out, { recursive: true, force: true });
mkdirSync(args.out, { recursive: true });
for (const [name, entry] of Object.entries(ENTRIES)) {
  await esbuild.build({
    entryPoints: [join(REPO, entry)],
    outfile: join(args.out, name),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['koffi'],
    nodePaths: [join(REPO, 'node_modules'), join(REPO, 'packages/cuobjtest/node_modules')],
    // CommonJS dependencies call require() for Node's own modules
    banner: {
      js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
    },
    logLevel: 'warning',
  });
}
const koffi = join(REPO, 'node_modules/.pnpm');
for (const dir of readdirSync(koffi).filter((d) => /^(koffi|@koromix\+koffi-linux-x64)@/.test(d))) {
  const pkg = dir.startsWith('koffi') ? 'koffi' : '@koromix/koffi-linux-x64';
  cpSync(join(koffi, dir, 'node_modules', pkg), join(args.out, 'node_modules', pkg), {
    recursive: true,
    dereference: true,
  });
}
cpSync(
  join(REPO, `native-shims/build/${process.platform}-${process.arch}/libvgwrdma_shims.so`),
  join(args.out, 'libvgwrdma_shims.so'),
);
cpSync(join(REPO, 'bench/device/run-gpu.sh'), join(args.out, 'run-gpu.sh'));
cpSync(join(REPO, 'bench/device/profile-up.sh'), join(args.out, 'profile-up.sh'));
cpSync(join(REPO, 'bench/device/ab-managed.sh'), join(args.out, 'ab-managed.sh'));
cpSync(join(REPO, 'bench/device/sweep-managed.sh'), join(args.out, 'sweep-managed.sh'));
cpSync(join(REPO, 'bench/device/wchan.py'), join(args.out, 'wchan.py'));
cpSync(join(REPO, 'bench/device/cpu-scaling.mjs'), join(args.out, 'cpu-scaling.mjs'));
if (!args['no-node'])
  execFileSync('sh', ['-c', 'gzip -6 -c "$0" > "$1"', process.execPath, join(args.out, 'node.gz')]);
console.error(`[bundle] ${args.out}: ${readdirSync(args.out).join(', ')}`);
