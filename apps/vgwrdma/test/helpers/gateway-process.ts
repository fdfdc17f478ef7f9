// Starts the BUILT gateway (dist/main.js) as a child process on a free loopback port and learns
// the port from the banner's `endpoint:` line. Every child is tracked and killed when the test
// file ends (afterAll) or the worker exits, so a failing test never leaves a gateway behind.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAIN = resolve(fileURLToPath(new URL('../../dist/main.js', import.meta.url)));

export const ROOT_CREDENTIALS = { access: 'e2e-access', secret: 'e2e-secret-key' } as const;

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Kills every child still running; call from afterAll. */
export function killAllChildren(): void {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
}

export function assertBuilt(): void {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build first (npm run build)`);
}

export interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

export interface GatewayProcess {
  readonly url: string;
  readonly port: number;
  readonly root: string;
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited. */
  readonly exited: Promise<Exit>;
  /** Sends the signal (SIGTERM by default) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

export interface StartOptions {
  /** Gateway root; a fresh temp directory when omitted (removed by cleanup()). */
  readonly root?: string;
  readonly globalArgs?: readonly string[];
  readonly posixArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

export async function makeTempDir(prefix = 'vgwrdma-e2e-'): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
}

/** Spawns `node dist/main.js` with a clean environment plus `env`. */
export function spawnMain(args: readonly string[], env: Readonly<Record<string, string>> = {}): ChildProcess {
  assertBuilt();
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export interface Finished extends Exit {
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the bin for a command that exits by itself (--help, bad flags). */
export async function runMain(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<Finished> {
  const child = spawnMain(args, env);
  const out = collect(child);
  const exit = await exitOf(child);
  return { ...exit, stdout: out.stdout(), stderr: out.stderr() };
}

export async function startGateway(options: StartOptions = {}): Promise<GatewayProcess> {
  const root = options.root ?? (await makeTempDir());
  const args = [
    '--port',
    '127.0.0.1:0',
    '--access',
    ROOT_CREDENTIALS.access,
    '--secret',
    ROOT_CREDENTIALS.secret,
    ...(options.globalArgs ?? []),
    'posix',
    ...(options.posixArgs ?? []),
    root,
  ];
  const child = spawnMain(args, options.env);
  const out = collect(child);
  const exited = exitOf(child);
  const url = await new Promise<string>((resolvePromise, reject) => {
    const onData = (): void => {
      const match = /^\s*endpoint:\s+(http:\/\/\S+)$/m.exec(out.stdout());
      if (match?.[1]) {
        child.stdout?.off('data', onData);
        resolvePromise(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    void exited.then((exit) =>
      reject(new Error(`gateway exited (${exit.code ?? exit.signal}) before its banner:\n${out.stderr()}`)),
    );
  });
  return {
    url,
    port: Number(new URL(url).port),
    root,
    child,
    stdout: out.stdout,
    stderr: out.stderr,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

function collect(child: ChildProcess): { stdout(): string; stderr(): string } {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  return { stdout: () => stdout, stderr: () => stderr };
}

function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolvePromise) => {
    child.once('close', (code, signal) => resolvePromise({ code, signal }));
  });
}
