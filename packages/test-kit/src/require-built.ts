// What vitest's globalSetups call: check that the builds child processes load exist, and fail
// once, naming the command that makes them, when they do not. Nothing is built here: `npm test`
// (and `npm run build`) build the shims and every dist/ before vitest starts, so collection
// does not pay for builds and a warm run starts at once.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { distFile, FAKE_CUDART, shimDir } from './paths.js';

/** What a package's tests need built. */
export interface BuildNeeds {
  /** The native shims: the library (in VGWRDMA_SHIM_DIR when set) and the fake CUDA runtime. */
  readonly shims?: boolean;
  /** Packages (`cuobjclient`) or repo folders (`apps/vgwrdma`) whose dist/ must exist. */
  readonly dist?: readonly string[];
}

/** Entry file of a package's dist/: the app and the CLIs build main.js, libraries index.js. */
const ENTRY: Readonly<Record<string, string>> = {
  'apps/vgwrdma': 'main.js',
  cuobjtest: 'main.js',
};

/** A dist/ entry that is missing, as its report line. */
function distProblem(name: string): string | undefined {
  const entry = distFile(name, ENTRY[name] ?? 'index.js');
  return existsSync(entry) ? undefined : `${entry} (missing)`;
}

/** What `needs` names that is missing, one line each. */
export function missingBuilds(needs: BuildNeeds): string[] {
  const shims = needs.shims ? [join(shimDir(), 'libvgwrdma_shims.so'), FAKE_CUDART] : [];
  return [
    ...shims.filter((file) => !existsSync(file)).map((file) => `${file} (missing)`),
    ...(needs.dist ?? []).map(distProblem).filter((line) => line !== undefined),
  ];
}

/** Throws one error listing what is missing and the command that builds it. */
export function requireBuilt(needs: BuildNeeds): void {
  const missing = missingBuilds(needs);
  if (missing.length === 0) return;
  throw new Error(
    `these tests need build outputs that are missing:\n  ${missing.join('\n  ')}\n` +
      'build first: npm run build (or npx pnpm@10.34.9 exec turbo run build)',
  );
}

/** The packages the in-process gateway child imports (its dist/ is what plain node loads). */
export const GATEWAY_PACKAGES: readonly string[] = [
  'backend-contract',
  'rdma-ffi',
  'bufferpool',
  'backend-posix',
  'cu-middleware',
  'cu-backend',
  'gateway',
];
