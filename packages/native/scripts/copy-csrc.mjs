// Copies the C sources of native-shims (no tests, no tools) into csrc/, which ships in the tarball
// for `npx @vgwrdma/native build`. Run by `build` and `prepack`; csrc/ is not committed.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const shims = fileURLToPath(new URL('../../../native-shims/', import.meta.url));
const out = fileURLToPath(new URL('../csrc/', import.meta.url));
const PARTS = ['CMakeLists.txt', 'src', 'include', 'cmake', 'vendor-decl'];
if (!existsSync(`${shims}CMakeLists.txt`)) {
  console.error(`@vgwrdma/native: ${shims} not found; csrc/ is copied from the repository's native-shims`);
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
for (const part of PARTS) cpSync(`${shims}${part}`, `${out}${part}`, { recursive: true });
console.log(`@vgwrdma/native: csrc/ ← native-shims/{${PARTS.join(',')}}`);
