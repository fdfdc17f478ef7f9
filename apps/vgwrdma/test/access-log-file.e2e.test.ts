// The --access-log FILE on disk (issue 30, hole 5): it was created 0644 (every local user read
// the presigned URLs in it) and opened through whatever symbolic link sat at its path. Now: created
// 0640 less the umask; a link planted at the path — to a file or to nowhere — stops the start with
// a message naming the path, and the link's target is neither written nor created; SIGHUP after a
// rotation (logrotate's `create` + postrotate `kill -HUP`) reopens the path under the same rules,
// and a link planted there before the SIGHUP is refused with an error line while the gateway keeps
// writing to the file it has open. Positive control: a plain path logs, and logs again after the
// rotation, one line per request.
import { lstat, readFile, rename, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ListBucketsCommand } from '@aws-sdk/client-s3';
import { loopbackArgs, runMain } from '@vgwrdma/test-kit';
import { appWorkDir, sceneRef, sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';

/** A gateway logging to logs/access.log in its scene folder. */
const logging = sceneTest((dir) => ({ globalArgs: ['--access-log', join(dir, 'logs', 'access.log')] }));

const lineCount = async (path: string): Promise<number> =>
  (await readFile(path, 'utf8')).split('\n').filter((l) => l !== '').length;

describe('--access-log FILE: mode, symbolic links, SIGHUP reopen', () => {
  const work = appWorkDir('vgwrdma-logfile-');

  it('refuses a symbolic link planted at the path, naming it; the target stays untouched', async () => {
    const victim = join(work(), 'victim.txt');
    await writeFile(victim, 'precious\n', { mode: 0o600 });
    const link = join(work(), 'planted.log');
    await symlink(victim, link);
    const dangling = join(work(), 'dangling.log');
    const wouldBeCreated = join(work(), 'created-by-link.txt');
    await symlink(wouldBeCreated, dangling);
    for (const path of [link, dangling]) {
      const run = await runMain([...loopbackArgs(), '--access-log', path, 'posix', work()]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`--access-log ${path} is a symbolic link; refusing to follow it`);
    }
    expect(await readFile(victim, 'utf8')).toBe('precious\n');
    expect((await stat(victim)).mode & 0o777).toBe(0o600);
    await expect(lstat(wouldBeCreated)).rejects.toThrow(/ENOENT/);
  });

  describe('a running gateway', () => {
    const the = sceneRef(logging);
    const file = (): string => the.path('logs', 'access.log');

    it('creates the file 0640 (less the umask)', async () => {
      await the.s3.send(new ListBucketsCommand({}));
      await expect.poll(() => lineCount(file())).toBe(1);
      const umask = process.umask();
      expect((await stat(file())).mode & 0o777).toBe(0o640 & ~umask);
    });

    it('reopens the path on SIGHUP after a rotation, and refuses a link planted there', async () => {
      const rotated = `${file()}.1`;
      await rename(file(), rotated);
      the.gw.child.kill('SIGHUP');
      await expect.poll(() => the.gw.stderr()).toMatch(/"msg":"access log reopened"/);
      await the.s3.send(new ListBucketsCommand({}));
      await expect.poll(() => lineCount(file())).toBe(1);
      expect((await stat(file())).mode & 0o777).toBe(0o640 & ~process.umask());
      expect(await lineCount(rotated)).toBe(1);

      // Rotated again, and a link planted at the path before the SIGHUP.
      const rotated2 = `${file()}.2`;
      await rename(file(), rotated2);
      const victim = join(work(), 'victim-2.txt');
      await writeFile(victim, 'precious\n');
      await symlink(victim, file());
      the.gw.child.kill('SIGHUP');
      await expect
        .poll(() => the.gw.stderr())
        .toMatch(
          /access log reopen failed, still writing to the open file: --access-log \S+ is a symbolic link/,
        );
      await the.s3.send(new ListBucketsCommand({}));
      await expect.poll(() => lineCount(rotated2)).toBe(2); // still the file it had open
      expect(await readFile(victim, 'utf8')).toBe('precious\n');
    });
  });
});
