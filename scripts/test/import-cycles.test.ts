// No value cycles inside a package: among the files of each packages/*/src, follow every relative
// import or re-export that brings a value (`import type`, `export type` and imports whose names
// are all `type` bring none and are skipped) and fail, naming the files, on any cycle. A cycle makes
// the evaluation order of its modules depend on which one is imported first (a `const` read before
// its module ran is a TDZ error at start, only on some entry points).

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function tsFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return /\.(ts|mts)$/.test(name) && !/\.d\.ts$/.test(name) ? [p] : [];
  });
}

const STATEMENT = /^\s*(import|export)\s+(type\s+)?([^;]*?)\s+from\s+['"](\.[^'"]+)['"]/gms;
const SIDE_EFFECT = /^\s*import\s+['"](\.[^'"]+)['"]/gm;

/** Whether a clause (`{ type A, b }`, `* as x`, `x`) brings a value. */
function bringsValue(clause: string): boolean {
  const braces = clause.match(/\{([^}]*)\}/);
  const outside = clause.replace(/\{[^}]*\}/, '').replace(/[,\s]/g, '');
  if (outside !== '') return true; // a default or namespace import, or `export *`
  if (!braces) return true;
  const names = (braces[1] ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  return names.some((n) => !n.startsWith('type '));
}

function target(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const p of [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')]) {
    if (existsSync(p) && statSync(p).isFile()) return p;
  }
  return undefined;
}

/** The value edges among `files`: file → files it imports values from. */
function valueEdges(files: string[]): Map<string, string[]> {
  const edges = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const out: string[] = [];
    for (const m of text.matchAll(STATEMENT)) {
      if (m[2] || !bringsValue(m[3] ?? '')) continue;
      const t = target(f, m[4] ?? '');
      if (t) out.push(t);
    }
    for (const m of text.matchAll(SIDE_EFFECT)) {
      const t = target(f, m[1] ?? '');
      if (t) out.push(t);
    }
    edges.set(f, out);
  }
  return edges;
}

/** Each cycle once, as the files along it (depth-first search; grey = on the current path). */
function cycles(edges: Map<string, string[]>): string[][] {
  const state = new Map<string, 'grey' | 'black'>();
  const path: string[] = [];
  const found: string[][] = [];
  const visit = (f: string): void => {
    state.set(f, 'grey');
    path.push(f);
    for (const t of edges.get(f) ?? []) {
      if (state.get(t) === 'grey') found.push(path.slice(path.indexOf(t)));
      else if (!state.has(t)) visit(t);
    }
    path.pop();
    state.set(f, 'black');
  };
  for (const f of [...edges.keys()].sort()) if (!state.has(f)) visit(f);
  return found;
}

describe('value imports', () => {
  it('finds a cycle when there is one (control)', () => {
    const e = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a']],
      ['d', ['a']],
    ]);
    expect(cycles(e)).toEqual([['a', 'b', 'c']]);
    expect(bringsValue('{ type A, type B }')).toBe(false);
    expect(bringsValue('{ type A, b }')).toBe(true);
    expect(bringsValue('* as ns')).toBe(true);
  });

  const packages = readdirSync(join(ROOT, 'packages')).filter((p) =>
    existsSync(join(ROOT, 'packages', p, 'src')),
  );
  it.each(packages)('packages/%s/src has no value cycle', (pkg) => {
    const found = cycles(valueEdges(tsFiles(join(ROOT, 'packages', pkg, 'src'))));
    expect(found.map((c) => c.map((f) => relative(ROOT, f)).join(' → '))).toEqual([]);
  });
});
