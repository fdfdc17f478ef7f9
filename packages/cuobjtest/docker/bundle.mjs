#!/usr/bin/env node
// Packs cuobjtest into one directory that runs with nothing but Node: what the GPU client image
// (docker/Dockerfile, like vgwrdma's `make cuobjtest-gpu-docker`) copies in, and what
// test/docker-bundle.e2e.test.ts runs outside a container. Needs the workspace built
// (`npm run build`: cuobjtest's dist/ and the native shims).
//   node packages/cuobjtest/docker/bundle.mjs OUT
// OUT/cuobjtest           launcher (sh): VGWRDMA_SHIM_DIR defaults to OUT/lib
// OUT/cuobjtest.mjs       esbuild bundle of dist/main.js (koffi, native, stays external)
// OUT/node_modules/koffi  the FFI package and its linux-x64 binary
// OUT/lib/                libvgwrdma_shims.so (and libvgwrdma_cuobj.so when it was built)
// The CUDA runtime (libcudart) is not bundled: the image's base (nvidia/cuda) provides it.

import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const out = resolve(process.argv[2] ?? '');
if (!process.argv[2]) {
  console.error('usage: node packages/cuobjtest/docker/bundle.mjs OUT');
  process.exit(2);
}
const main = join(REPO, 'packages/cuobjtest/dist/main.js');
const shims = join(REPO, `native-shims/build/${process.platform}-${process.arch}`);
for (const [file, what] of [
  [main, 'cuobjtest (npm run build)'],
  [join(shims, 'libvgwrdma_shims.so'), 'the native shims (npm run build)'],
]) {
  if (!existsSync(file)) {
    console.error(`bundle: ${file} is missing: build ${what} first`);
    process.exit(1);
  }
}

// esbuild comes with tsup (a devDependency of every package).
const esbuild = createRequire(realpathSync(join(REPO, 'packages/cuobjtest/node_modules/tsup/package.json')))(
  'esbuild',
);
rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'lib'), { recursive: true });
await esbuild.build({
  entryPoints: [main],
  outfile: join(out, 'cuobjtest.mjs'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['koffi'],
  nodePaths: [join(REPO, 'node_modules'), join(REPO, 'packages/cuobjtest/node_modules')],
  // CommonJS dependencies call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
});
const store = join(REPO, 'node_modules/.pnpm');
for (const dir of readdirSync(store).filter((d) => /^(koffi|@koromix\+koffi-linux-x64)@/.test(d))) {
  const pkg = dir.startsWith('koffi') ? 'koffi' : '@koromix/koffi-linux-x64';
  cpSync(join(store, dir, 'node_modules', pkg), join(out, 'node_modules', pkg), {
    recursive: true,
    dereference: true,
  });
}
for (const lib of ['libvgwrdma_shims.so', 'libvgwrdma_cuobj.so']) {
  if (existsSync(join(shims, lib))) cpSync(join(shims, lib), join(out, 'lib', lib));
}
writeFileSync(
  join(out, 'cuobjtest'),
  `#!/bin/sh
# cuobjtest from this bundle; the shim library next to it unless VGWRDMA_SHIM_DIR says otherwise.
here=$(dirname "$(readlink -f "$0")")
VGWRDMA_SHIM_DIR="\${VGWRDMA_SHIM_DIR:-$here/lib}" exec node "$here/cuobjtest.mjs" "$@"
`,
);
chmodSync(join(out, 'cuobjtest'), 0o755);
console.error(`[bundle] ${out}: ${readdirSync(out).join(', ')}`);
