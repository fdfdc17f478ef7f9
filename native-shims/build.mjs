// Builds the shims with CMake into build/<platform>-<arch>/ (no node-gyp). Run by turbo as
// `build:native`; @vgwrdma/native loads the library from there.
//   node build.mjs               this machine's platform and architecture
//   node build.mjs --arch arm64  cross-compile for linux-arm64 (Debian: gcc-aarch64-linux-gnu)
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = fileURLToPath(new URL('.', import.meta.url));
if (!existsSync(`${here}CMakeLists.txt`)) {
  console.log('native-shims: no CMakeLists.txt yet, nothing to build');
  process.exit(0);
}
const { values } = parseArgs({ options: { arch: { type: 'string', default: process.arch } } });
const TOOLCHAINS = { arm64: 'cmake/linux-arm64.toolchain.cmake' };
const arch = values.arch;
const cross = arch !== process.arch;
if (cross && (process.platform !== 'linux' || !(arch in TOOLCHAINS))) {
  console.error(
    `native-shims: --arch ${arch}: cross builds exist for linux-${Object.keys(TOOLCHAINS).join(', linux-')} only`,
  );
  process.exit(2);
}
const dir = `build/${process.platform}-${arch}`;
// A build folder restored from turbo's cache, or copied with a checkout moved elsewhere, carries a
// CMakeCache.txt naming another source directory, which cmake refuses: configure that one afresh.
const cache = `${here}${dir}/CMakeCache.txt`;
if (existsSync(cache)) {
  const home = /^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$/m.exec(readFileSync(cache, 'utf8'))?.[1];
  if (home !== undefined && resolve(home) !== resolve(here)) {
    console.log(`native-shims: ${dir} was configured for ${home}; configuring it again here`);
    rmSync(cache);
    rmSync(`${here}${dir}/CMakeFiles`, { recursive: true, force: true });
  }
}
const run = (args) => execFileSync('cmake', args, { cwd: here, stdio: 'inherit' });
run([
  '-S',
  '.',
  '-B',
  dir,
  '-DCMAKE_BUILD_TYPE=Release',
  ...(cross ? [`-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAINS[arch]}`] : []),
]);
run(['--build', dir, '--parallel']);
