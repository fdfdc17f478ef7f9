// npm run release:version (`changeset version`) on a temporary copy of the workspace's manifests
// and pending changesets, never on the checkout: every pending changeset names publishable
// packages with a valid bump, the bump applied is the highest one asked for (or a patch for a
// package whose internal dependency moved), each bumped package gets a CHANGELOG.md with the
// changesets' text, private packages keep their versions, `workspace:` specifiers survive, no
// package jumps a major (the trap: a peer dependency on a bumped 0.x sibling), and the changesets
// are consumed.

import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUMPS = ['patch', 'minor', 'major'] as const;
type Bump = (typeof BUMPS)[number];

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

function workspaceDirs(): string[] {
  const dirs = ['native-shims'];
  for (const parent of ['packages', 'apps']) {
    for (const e of readdirSync(join(ROOT, parent), { withFileTypes: true })) {
      if (e.isDirectory() && existsSync(join(ROOT, parent, e.name, 'package.json')))
        dirs.push(`${parent}/${e.name}`);
    }
  }
  return dirs;
}
const readManifest = (root: string, dir: string) =>
  JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as Manifest;

/** The pending changesets: front matter `"name": bump` lines, then the summary. */
function pendingChangesets(): { file: string; bumps: Map<string, string>; summary: string }[] {
  const dir = join(ROOT, '.changeset');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
      if (!m) throw new Error(`${file}: no front matter`);
      const bumps = new Map<string, string>();
      for (const line of (m[1] ?? '').split('\n').filter((l) => l.trim())) {
        const kv = /^\s*["']?([^"':]+)["']?\s*:\s*(\S+)\s*$/.exec(line);
        if (!kv) throw new Error(`${file}: unreadable line ${line}`);
        bumps.set(kv[1] ?? '', kv[2] ?? '');
      }
      return { file, bumps, summary: (m[2] ?? '').trim() };
    });
}

function bumped(version: string, bump: Bump): string {
  const [maj = 0, min = 0, pat = 0] = version.split('.').map(Number);
  if (bump === 'major') return `${maj + 1}.0.0`;
  if (bump === 'minor') return `${maj}.${min + 1}.0`;
  return `${maj}.${min}.${pat + 1}`;
}

describe('release:version on a copy of the workspace', () => {
  const dirs = workspaceDirs();
  const before = new Map(dirs.map((d) => [d, readManifest(ROOT, d)]));
  const byName = new Map([...before].map(([d, m]) => [m.name, { dir: d, manifest: m }]));
  const changesets = pendingChangesets();
  let copy: string;

  beforeAll(async () => {
    copy = await mkdtemp(join(tmpdir(), 'release-version-'));
    for (const f of ['package.json', 'pnpm-workspace.yaml']) await cp(join(ROOT, f), join(copy, f));
    await cp(join(ROOT, '.changeset'), join(copy, '.changeset'), { recursive: true });
    for (const d of dirs) {
      await mkdir(join(copy, d), { recursive: true });
      await cp(join(ROOT, d, 'package.json'), join(copy, d, 'package.json'));
    }
    // The repository's own changesets CLI, run in the copy (it needs no git with commit: false).
    const cli = join(ROOT, 'node_modules', '@changesets', 'cli', 'bin.js');
    await run(process.execPath, [cli, 'version'], { cwd: copy, env: { ...process.env, CI: '1' } });
  }, 120_000);
  afterAll(async () => {
    if (copy) await rm(copy, { recursive: true, force: true });
  });

  it('there are pending changesets, and each names publishable packages with a valid bump', () => {
    expect(changesets.length).toBeGreaterThan(0);
    for (const c of changesets) {
      expect(c.summary, c.file).not.toBe('');
      for (const [name, bump] of c.bumps) {
        expect(byName.has(name), `${c.file}: ${name} is not a workspace package`).toBe(true);
        expect(byName.get(name)?.manifest.private, `${c.file}: ${name} is private`).toBeFalsy();
        expect(BUMPS as readonly string[], `${c.file}: ${name}: ${bump}`).toContain(bump);
      }
    }
  });

  it('applies the highest bump asked for, writes CHANGELOG.md, leaves private packages alone', async () => {
    const asked = new Map<string, Bump>();
    for (const c of changesets)
      for (const [name, bump] of c.bumps) {
        const prev = asked.get(name);
        if (!prev || BUMPS.indexOf(bump as Bump) > BUMPS.indexOf(prev)) asked.set(name, bump as Bump);
      }
    for (const [dir, old] of before) {
      const now = readManifest(copy, dir);
      const bump = asked.get(old.name);
      if (old.private) {
        expect(now.version, old.name).toBe(old.version);
        continue;
      }
      if (bump) expect(now.version, old.name).toBe(bumped(old.version, bump));
      else expect([old.version, bumped(old.version, 'patch')], old.name).toContain(now.version);
      expect(now.version.startsWith('0.'), `${old.name} went to ${now.version}`).toBe(true);
      if (now.version !== old.version) {
        const log = await readFile(join(copy, dir, 'CHANGELOG.md'), 'utf8');
        expect(log, old.name).toContain(`## ${now.version}`);
        for (const c of changesets) {
          const first = c.summary.split('\n')[0] ?? '';
          if (c.bumps.has(old.name)) expect(log, `${old.name} ← ${c.file}`).toContain(first);
        }
      }
    }
  });

  it('keeps workspace: specifiers and every internal peer range satisfied', () => {
    for (const [dir, old] of before) {
      const now = readManifest(copy, dir);
      for (const field of ['dependencies', 'devDependencies'] as const) {
        for (const [dep, spec] of Object.entries(old[field] ?? {})) {
          if (spec.startsWith('workspace:')) expect(now[field]?.[dep], `${old.name} ${dep}`).toBe(spec);
        }
      }
      for (const [dep, range] of Object.entries(now.peerDependencies ?? {})) {
        const target = byName.get(dep);
        if (!target) continue;
        const version = readManifest(copy, target.dir).version;
        // The ranges used here are ">=a.b.c <d.e.f": check both ends numerically.
        const m = /^>=(\d+\.\d+\.\d+) <(\d+\.\d+\.\d+)$/.exec(range);
        expect(m, `${old.name} peer ${dep}: ${range}`).not.toBeNull();
        const num = (v: string) => v.split('.').reduce((acc, p) => acc * 1000 + Number(p), 0);
        expect(num(version)).toBeGreaterThanOrEqual(num(m?.[1] ?? ''));
        expect(num(version)).toBeLessThan(num(m?.[2] ?? ''));
      }
    }
  });

  it('consumes the changesets', () => {
    const left = readdirSync(join(copy, '.changeset')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(left).toEqual([]);
    // The checkout itself is untouched.
    expect(pendingChangesets().length).toBe(changesets.length);
  });
});
