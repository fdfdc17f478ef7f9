// Builds the shims with CMake into build/<platform>-<arch>/ (no node-gyp). Run by turbo as
// `build:native`; the rdma-ffi package loads the libraries from there.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
if (!existsSync(`${here}CMakeLists.txt`)) {
  console.log('native-shims: no CMakeLists.txt yet, nothing to build');
  process.exit(0);
}
const dir = `build/${process.platform}-${process.arch}`;
const run = (args) => execFileSync('cmake', args, { cwd: here, stdio: 'inherit' });
run(['-S', '.', '-B', dir, '-DCMAKE_BUILD_TYPE=Release']);
run(['--build', dir, '--parallel']);
