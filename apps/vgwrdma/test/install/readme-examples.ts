// The runnable examples of the package READMEs: every fenced block whose info string is
// `js example` is a complete ES module a reader can paste into a `.mjs` file. Prose-only snippets
// (```ts, ```sh, ...) are not collected. The test runs each one against installed packages.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { REPO_ROOT } from '@vgwrdma/test-kit';

export interface ReadmeExample {
  /** `packages/cuobjclient/README.md:24` — the README and the line of the opening fence. */
  readonly where: string;
  /** A file name for the example: `<package folder>-<n>.mjs`. */
  readonly fileName: string;
  readonly code: string;
  /** The npm packages it imports (bare specifiers, without `node:` built-ins). */
  readonly packages: readonly string[];
}

const FENCE = /^```js example\s*\n([\s\S]*?)^```\s*$/gm;
const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g;

function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('node:') || specifier.startsWith('.') || specifier.startsWith('/')) return;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export function examplesIn(markdown: string, readme: string, folder: string): ReadmeExample[] {
  const found: ReadmeExample[] = [];
  for (const match of markdown.matchAll(FENCE)) {
    const code = match[1] ?? '';
    const line = markdown.slice(0, match.index).split('\n').length;
    const packages = new Set<string>();
    for (const imp of code.matchAll(IMPORT)) {
      const name = imp[1] === undefined ? undefined : packageOf(imp[1]);
      if (name) packages.add(name);
    }
    found.push({
      where: `${readme}:${line}`,
      fileName: `${folder}-${found.length + 1}.mjs`,
      code,
      packages: [...packages].sort(),
    });
  }
  return found;
}

/** Every runnable example in `packages/<name>/README.md` and `apps/<name>/README.md`. */
export async function readmeExamples(): Promise<ReadmeExample[]> {
  const all: ReadmeExample[] = [];
  for (const group of ['packages', 'apps']) {
    for (const folder of (await readdir(join(REPO_ROOT, group))).sort()) {
      const file = join(REPO_ROOT, group, folder, 'README.md');
      const markdown = await readFile(file, 'utf8').catch(() => undefined);
      if (markdown !== undefined) all.push(...examplesIn(markdown, relative(REPO_ROOT, file), folder));
    }
  }
  return all;
}
