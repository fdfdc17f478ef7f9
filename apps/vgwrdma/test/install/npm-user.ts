// A new user's shell, for the install tests: a fresh HOME outside the workspace whose ~/.npmrc
// names the local registry (and nothing else of this machine's npm setup but the system config),
// a fresh npm cache and global prefix, and an environment with no VGWRDMA_* / npm_* / NODE_*
// variables and no node_modules/.bin on PATH — so nothing of the monorepo can leak in.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir } from '@vgwrdma/test-kit';

const run = promisify(execFile);

/** Variables a login shell would have; everything else of the test runner's environment is dropped. */
const KEPT = ['LANG', 'LC_ALL', 'TZ', 'TERM', 'USER', 'LOGNAME', 'SHELL'];

export interface NpmUserOptions {
  /** The registry's URL, with a trailing slash. */
  readonly registry: string;
  /** A token for the registry, for the user who publishes. */
  readonly token?: string;
}

export class NpmUser {
  private constructor(
    readonly home: string,
    readonly prefix: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  static async create(options: NpmUserOptions): Promise<NpmUser> {
    const home = await makeTempDir('vgwrdma-user-');
    const prefix = join(home, 'global');
    await mkdir(join(prefix, 'bin'), { recursive: true });
    const host = new URL(options.registry).host;
    const npmrc = [
      `registry=${options.registry}`,
      `cache=${join(home, '.npm')}`,
      `prefix=${prefix}`,
      'fund=false',
      'audit=false',
      'update-notifier=false',
      'loglevel=error',
      ...(options.token ? [`//${host}/:_authToken=${options.token}`] : []),
    ];
    await writeFile(join(home, '.npmrc'), `${npmrc.join('\n')}\n`);
    const path = [
      join(prefix, 'bin'),
      dirname(process.execPath),
      ...(process.env.PATH ?? '').split(':').filter((p) => p && !p.includes('node_modules')),
    ];
    const env: NodeJS.ProcessEnv = { HOME: home, PATH: path.join(':'), TMPDIR: join(home, 'tmp') };
    for (const name of KEPT) if (process.env[name] !== undefined) env[name] = process.env[name];
    await mkdir(join(home, 'tmp'));
    return new NpmUser(home, prefix, env);
  }

  /** A new empty folder in this user's home (outside the workspace). */
  async folder(name: string): Promise<string> {
    const dir = join(this.home, name);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /** The path of a command the global install put on this user's PATH. */
  bin(name: string): string {
    return join(this.prefix, 'bin', name);
  }

  /** Runs npm as this user; rejects with npm's output on a non-zero exit. */
  async npm(args: readonly string[], cwd: string, timeoutMs = 300_000): Promise<string> {
    try {
      const { stdout } = await run('npm', [...args], {
        cwd,
        env: this.env,
        timeout: timeoutMs,
        maxBuffer: 16 << 20,
      });
      return stdout;
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`npm ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
  }

  /** Runs `node <script> ...args` in `cwd` as this user, returning stdout and stderr. */
  node(script: string, args: readonly string[], cwd: string, extraEnv: NodeJS.ProcessEnv = {}) {
    return this.command(process.execPath, [script, ...args], cwd, extraEnv);
  }

  /** Runs a command (an installed bin, say) as this user; rejects with its output on failure. */
  async command(
    file: string,
    args: readonly string[],
    cwd: string,
    extraEnv: NodeJS.ProcessEnv = {},
    timeoutMs = 120_000,
  ): Promise<{ stdout: string; stderr: string }> {
    try {
      return await run(file, [...args], {
        cwd,
        env: { ...this.env, ...extraEnv },
        timeout: timeoutMs,
        maxBuffer: 16 << 20,
      });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`${file} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
    }
  }
}
