// The listing's stat (src/listing/entry-stat.ts, libc statx into a reused buffer) says what
// Node's lstat says of the same entry: type, inode, size, times to the nanosecond and the date a
// listing shows; a link is neither file nor directory (never followed); a missing entry or a path
// through a file is undefined; other failures throw with the errno's name.
import { lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { entryStat, wholeMs } from '../src/listing/entry-stat.js';

const dir = mkdtempSync(join(tmpdir(), 'entry-stat-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function asNode(path: string) {
  const st = lstatSync(path, { bigint: true });
  const sec = (ns: bigint) => Number(ns / 1_000_000_000n);
  const nsec = (ns: bigint) => Number(ns % 1_000_000_000n);
  return {
    isFile: st.isFile(),
    isDir: st.isDirectory(),
    ino: Number(st.ino),
    size: Number(st.size),
    mtimeSec: sec(st.mtimeNs),
    mtimeNsec: nsec(st.mtimeNs),
    ctimeSec: sec(st.ctimeNs),
    ctimeNsec: nsec(st.ctimeNs),
  };
}

describe('entryStat', () => {
  it('matches lstat for a file and a directory, to the nanosecond', () => {
    const file = join(dir, 'obj');
    writeFileSync(file, Buffer.alloc(12345, 7));
    const sub = join(dir, 'sub');
    mkdirSync(sub);
    expect(entryStat(file)).toEqual(asNode(file));
    expect(entryStat(sub)).toEqual(asNode(sub));
    expect(entryStat(file)).toMatchObject({ isFile: true, isDir: false, size: 12345 });
    expect(entryStat(sub)).toMatchObject({ isFile: false, isDir: true });
  });

  it('gives the date Node gives (Stats.mtime), also for times before 1970 and odd milliseconds', () => {
    const file = join(dir, 'dated');
    writeFileSync(file, 'x');
    for (const at of [
      new Date('2026-12-02T05:38:27.4995Z'),
      new Date(1_796_189_774_402.6),
      new Date(-86_400_500),
    ]) {
      utimesSync(file, at, at);
      const st = entryStat(file);
      expect(st && wholeMs(st.mtimeSec, st.mtimeNsec)).toBe(lstatSync(file).mtime.getTime());
    }
  });

  it('does not follow a link: it is neither file nor directory', () => {
    const target = join(dir, 'target');
    writeFileSync(target, 'data');
    const link = join(dir, 'link');
    symlinkSync(target, link);
    expect(entryStat(link)).toMatchObject({ isFile: false, isDir: false, ino: Number(lstatSync(link).ino) });
  });

  it('is undefined for a missing entry and for a path through a file', () => {
    writeFileSync(join(dir, 'plain'), 'x');
    expect(entryStat(join(dir, 'nothing-here'))).toBeUndefined();
    expect(entryStat(join(dir, 'plain', 'below'))).toBeUndefined();
  });

  it('throws other failures with the errno name', () => {
    expect(() => entryStat(join(dir, 'x'.repeat(300)))).toThrow(/ENAMETOOLONG: statx/);
  });
});
