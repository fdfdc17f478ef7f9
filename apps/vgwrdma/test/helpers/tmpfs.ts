// A small tmpfs for the disk-full tests. Mounting needs root (CAP_SYS_ADMIN): `tmpfsSkipReason`
// says why a test cannot run here, so it can skip with that reason printed.
import { execFileSync } from 'node:child_process';
import { makeTempDir, removeDir } from '@vgwrdma/test-kit';

export function tmpfsSkipReason(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  try {
    execFileSync('mount', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'no mount command';
  }
  return undefined;
}

export interface Tmpfs {
  readonly dir: string;
  /** Bytes free, as statfs says. */
  free(): number;
  unmount(): Promise<void>;
}

export async function mountTmpfs(bytes: number): Promise<Tmpfs> {
  const dir = await makeTempDir('vgwrdma-tmpfs-');
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0755`, 'tmpfs', dir]);
  const { statfsSync } = await import('node:fs');
  return {
    dir,
    free: () => {
      const s = statfsSync(dir);
      return s.bavail * s.bsize;
    },
    unmount: async () => {
      execFileSync('umount', ['-l', dir]);
      await removeDir(dir);
    },
  };
}
