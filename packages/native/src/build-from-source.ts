// `npx @vgwrdma/native build`: compiles libvgwrdma_shims from the C sources shipped in this
// package (csrc/, copied from native-shims at pack time) with CMake, into the directory the
// loader searches after the per-platform package (<package>/build/<platform tag>/), then loads
// the result once to prove it works. For machines no prebuilt package matches (musl, another
// CPU) or installs that omitted optional dependencies.

import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type VgwErrorCodeOf, VgwrdmaError } from '@vgwrdma/errors';
import { libraryFileName } from './library-resolver.js';
import { defaultSourceBuildRoot, shippedSourcesDir } from './package-paths.js';
import { currentPlatform, describePlatform, platformTag } from './platform.js';
import { loadNativeLibrary, SHIM_LIBRARY } from './shim-library.js';

export const BUILD_USAGE = `Usage: npx @vgwrdma/native build [--out <dir>] [--jobs <n>]

Builds libvgwrdma_shims.so from the C sources shipped in @vgwrdma/native (needs cmake ≥ 3.16 and
a C11 compiler). Without --out it goes where @vgwrdma/native looks for it; with --out, point
VGWRDMA_SHIM_DIR at that directory.`;

/**
 * A refusal of the build command: its message is printed as is, the exit status is 1
 * (VGW_ERR_NATIVE_BUILD_FAILED), or 2 for a bad command line and 0 for --help (VGW_ERR_NATIVE_BUILD_USAGE).
 */
export class BuildCommandError extends VgwrdmaError<VgwErrorCodeOf<'BuildCommandError'>> {
  override readonly name = 'BuildCommandError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(exitCode === 1 ? 'VGW_ERR_NATIVE_BUILD_FAILED' : 'VGW_ERR_NATIVE_BUILD_USAGE', message);
  }
}

export interface BuildOptions {
  readonly out?: string | undefined;
  readonly jobs?: number | undefined;
  readonly log?: (line: string) => void;
}

/** Parses the command line after `build`. */
export function parseBuildArgs(argv: readonly string[]): BuildOptions {
  let values: { out?: string; jobs?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { out: { type: 'string' }, jobs: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new BuildCommandError(`${(e as Error).message}\n\n${BUILD_USAGE}`, 2);
  }
  if (values.help) throw new BuildCommandError(BUILD_USAGE, 0);
  const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
  if (jobs !== undefined && !(Number.isInteger(jobs) && jobs > 0)) {
    throw new BuildCommandError(`--jobs must be a positive integer, got ${values.jobs}`, 2);
  }
  return { out: values.out, jobs };
}

function requireTool(tool: string, hint: string) {
  const r = spawnSync(tool, ['--version'], { encoding: 'utf8' });
  if (r.error || r.status !== 0)
    throw new BuildCommandError(`@vgwrdma/native build: ${tool} not found (${hint})`);
}

function writableDir(dir: string): string {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    return dir;
  } catch {
    throw new BuildCommandError(
      `@vgwrdma/native build: cannot write ${dir}; pass --out <dir> and set VGWRDMA_SHIM_DIR to it`,
    );
  }
}

/** Builds the library; answers its path. Throws BuildCommandError. */
export function buildFromSource(options: BuildOptions = {}): string {
  const log = options.log ?? ((line: string) => console.log(line));
  const platform = currentPlatform();
  if (platform.os !== 'linux') {
    throw new BuildCommandError(
      `@vgwrdma/native build: ${describePlatform(platform)} is not supported (Linux only)`,
    );
  }
  const sources = shippedSourcesDir();
  if (sources === undefined || !existsSync(join(sources, 'CMakeLists.txt'))) {
    throw new BuildCommandError(`@vgwrdma/native build: the C sources are missing (${sources ?? 'csrc/'})`);
  }
  requireTool('cmake', 'install cmake ≥ 3.16, e.g. apt-get install cmake / apk add cmake');
  const root = defaultSourceBuildRoot();
  const out = writableDir(
    options.out !== undefined ? resolve(options.out) : join(root ?? dirname(sources), platformTag(platform)),
  );
  const run = (step: string, args: string[]) => {
    log(`@vgwrdma/native build: ${step}`);
    const r = spawnSync('cmake', args, { stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) {
      throw new BuildCommandError(
        `@vgwrdma/native build: ${step} failed (cmake exit ${r.status ?? r.signal}); a C compiler is needed (e.g. apt-get install build-essential / apk add build-base)`,
      );
    }
  };
  log(`@vgwrdma/native build: ${describePlatform(platform)}, sources ${sources}, output ${out}`);
  run('configure', ['-S', sources, '-B', out, '-DCMAKE_BUILD_TYPE=Release']);
  const parallel = options.jobs === undefined ? ['--parallel'] : ['--parallel', String(options.jobs)];
  run('compile', ['--build', out, '--target', SHIM_LIBRARY, ...parallel]);
  const path = join(out, libraryFileName(SHIM_LIBRARY));
  const lib = loadNativeLibrary({ shimDir: out });
  log(`@vgwrdma/native build: built ${path} (ABI ${lib.abi})`);
  log(
    options.out === undefined
      ? '@vgwrdma/native build: @vgwrdma/native loads it from there, no environment variable needed'
      : `@vgwrdma/native build: set VGWRDMA_SHIM_DIR=${out} to use it`,
  );
  return path;
}
