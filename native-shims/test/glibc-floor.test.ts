// The shipped library must load wherever the official Node.js binaries load: glibc 2.28 at the
// most (src/glibc_floor.h), and nothing linked but libc (rdma-core, libcudart and the vendor plugin
// are dlopen'ed). Reads the release builds' dynamic symbol versions and NEEDED entries.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const FLOOR = [2, 28];
const ALLOWED_NEEDED = /^(libc\.so\.6|libdl\.so\.2|libpthread\.so\.0|ld-linux-[a-z0-9-]+\.so\.[12])$/;
const TOOLS: Record<string, string> = { x64: 'objdump', arm64: 'aarch64-linux-gnu-objdump' };

const hasTool = (tool: string) => {
  try {
    execFileSync(tool, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const versionAbove = (v: string) => {
  const [maj = 0, min = 0] = v.split('.').map(Number);
  return maj > FLOOR[0]! || (maj === FLOOR[0] && min > FLOOR[1]!);
};

for (const [arch, objdump] of Object.entries(TOOLS)) {
  const lib = `${root}build/linux-${arch}/libvgwrdma_shims.so`;
  const why = !existsSync(lib)
    ? `no ${arch} build (node build.mjs --arch ${arch})`
    : !hasTool(objdump)
      ? `no ${objdump}`
      : '';
  describe.skipIf(why !== '')(`libvgwrdma_shims.so linux-${arch}${why ? ` (${why})` : ''}`, () => {
    test(`needs glibc ${FLOOR.join('.')} at the most`, () => {
      const out = execFileSync(objdump, ['-T', lib], { encoding: 'utf8' });
      const versions = [...new Set([...out.matchAll(/GLIBC_([0-9.]+)/g)].map((m) => m[1]!))];
      expect(versions.length).toBeGreaterThan(0);
      expect(versions.filter(versionAbove)).toEqual([]);
    });
    test('links nothing beyond libc, libdl, libpthread and the dynamic loader', () => {
      const out = execFileSync(objdump, ['-p', lib], { encoding: 'utf8' });
      const needed = [...out.matchAll(/^\s*NEEDED\s+(\S+)/gm)].map((m) => m[1]!);
      expect(needed).toContain('libc.so.6');
      expect(needed.filter((n) => !ALLOWED_NEEDED.test(n))).toEqual([]);
    });
  });
}
