// Builds the native shims when their library is missing (the child and the server load it).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const shims = fileURLToPath(new URL('../../../native-shims/', import.meta.url));

export default function setup(): void {
  const lib = `${shims}build/${process.platform}-${process.arch}/libvgwrdma_shims.so`;
  if (!process.env.VGWRDMA_SHIM_DIR && !existsSync(lib)) {
    execFileSync(process.execPath, ['build.mjs'], { cwd: shims, stdio: 'inherit' });
  }
}
