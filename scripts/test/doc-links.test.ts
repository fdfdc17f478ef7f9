// Every Markdown file in the repository links only inside the repository: each link's target
// (the part before any #anchor) is a relative path to a file or folder that exists in the
// checkout, never a URL, an absolute path, or a path that climbs above the repository root.
// Fenced code blocks are skipped (commands there name URLs such as http://127.0.0.1:7070).

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function markdownFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return out.split('\n').filter((f) => f && existsSync(join(ROOT, f)));
}

/** Link targets of inline links and images, `[text](target)`, outside fenced blocks. */
function linkTargets(text: string): string[] {
  const prose = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  return [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '');
}

function problem(file: string, target: string): string | undefined {
  if (target.startsWith('#')) return undefined;
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return 'points outside the repository (a URL)';
  if (target.startsWith('/')) return 'is an absolute path';
  const path = decodeURI(target.split('#')[0] ?? '');
  const abs = resolve(ROOT, dirname(file), path);
  if (relative(ROOT, abs).startsWith('..')) return 'climbs out of the repository';
  if (!existsSync(abs)) return 'names a file that does not exist';
  return undefined;
}

describe('documentation links', () => {
  it('the checker sees the kinds of bad link it is meant to refuse', () => {
    expect(
      linkTargets('see [a](https://example.org) and ![b](../x.svg "t")\n```\n[c](http://no)\n```\n'),
    ).toEqual(['https://example.org', '../x.svg']);
    expect(problem('README.md', 'https://example.org')).toMatch(/URL/);
    expect(problem('README.md', '../elsewhere/PROTOCOL.md')).toMatch(/climbs/);
    expect(problem('README.md', '/work/x.md')).toMatch(/absolute/);
    expect(problem('README.md', 'docs/no-such-page.md')).toMatch(/does not exist/);
    expect(problem('README.md', 'docs/errors.md#codes')).toBeUndefined();
  });

  it('every README and doc links only to files in this repository', () => {
    const files = markdownFiles();
    expect(files).toEqual(
      expect.arrayContaining(['README.md', 'apps/vgwrdma/README.md', 'docs/architecture.md']),
    );
    const bad: string[] = [];
    for (const file of files) {
      for (const target of linkTargets(readFileSync(join(ROOT, file), 'utf8'))) {
        const why = problem(file, target);
        if (why) bad.push(`${file}: (${target}) ${why}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
