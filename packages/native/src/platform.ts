// What this machine is, as far as native code cares: OS, CPU and C library. glibc or musl is read
// from Node's diagnostic report (`header.glibcVersionRuntime` is present only on glibc), the way
// prebuilt-binary loaders tell them apart. The table of prebuilt packages lives here too.

/** The C library Node runs on (Linux only; other systems report 'unknown'). */
export type Libc = 'glibc' | 'musl' | 'unknown';

/** A platform the loader reasons about. */
export interface Platform {
  readonly os: string;
  readonly arch: string;
  readonly libc: Libc;
}

/** The prebuilt packages published, by `<os>-<arch>-<libc>` (all need glibc ≥ 2.28). */
export const PREBUILT_PACKAGES: Readonly<Record<string, string>> = {
  'linux-x64-glibc': '@vgwrdma/native-shims-linux-x64',
  'linux-arm64-glibc': '@vgwrdma/native-shims-linux-arm64',
};

/** `<os>-<arch>` of every prebuilt package. */
export const SUPPORTED_PLATFORMS: readonly string[] = Object.keys(PREBUILT_PACKAGES).map((k) =>
  k.split('-').slice(0, 2).join('-'),
);

/** The one command that builds the library from the sources shipped in @vgwrdma/native. */
export const BUILD_COMMAND = 'npx @vgwrdma/native build';

interface ReportHeader {
  header?: { glibcVersionRuntime?: string };
}

/** glibc when Node's report names a glibc runtime, musl on other Linux, else unknown. */
export function detectLibc(
  os: string = process.platform,
  report: () => unknown = () => process.report?.getReport(),
): Libc {
  if (os !== 'linux') return 'unknown';
  const header = (report() as ReportHeader | undefined)?.header;
  return typeof header?.glibcVersionRuntime === 'string' ? 'glibc' : 'musl';
}

/** This process's platform. */
export function currentPlatform(): Platform {
  return { os: process.platform, arch: process.arch, libc: detectLibc() };
}

/** 'linux-x64' for glibc, 'linux-x64-musl' for musl: the directory name of a build for it. */
export function platformTag(p: Platform): string {
  return p.libc === 'musl' ? `${p.os}-${p.arch}-musl` : `${p.os}-${p.arch}`;
}

/** 'linux-x64 (glibc)', for messages. */
export function describePlatform(p: Platform): string {
  return p.libc === 'unknown' ? `${p.os}-${p.arch}` : `${p.os}-${p.arch} (${p.libc})`;
}

/** The prebuilt package for `p`, if one is published. */
export function prebuiltPackage(p: Platform): string | undefined {
  return PREBUILT_PACKAGES[`${p.os}-${p.arch}-${p.libc}`];
}

/** 'linux-x64 (glibc): @vgwrdma/native-shims-linux-x64, ...', for messages. */
export function listPrebuilt(): string {
  return Object.entries(PREBUILT_PACKAGES)
    .map(([key, name]) => {
      const [os, arch, libc] = key.split('-');
      return `${name} (${os}-${arch}, ${libc})`;
    })
    .join(', ');
}
