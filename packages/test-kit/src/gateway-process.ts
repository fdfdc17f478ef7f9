// Starts the BUILT gateway application (apps/vgwrdma/dist/main.js) as a child process on a free
// loopback port and learns the port from the banner's `endpoint:` line. The child's environment
// is clean (PATH plus what the test passes), so nothing from the developer's shell leaks in.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { collectOutput, type Exit, exitOf, waitForStdout } from './child-output.js';
import { track } from './child-registry.js';
import { APP_MAIN } from './paths.js';
import { makeTempDir } from './temp-dir.js';

export interface Credentials {
  readonly access: string;
  readonly secret: string;
}

/** The root account startGateway gives the gateway unless told otherwise. */
export const ROOT_CREDENTIALS: Credentials = { access: 'e2e-access', secret: 'e2e-secret-key' };

/** A running app process. */
export interface AppProcess {
  readonly url: string;
  readonly port: number;
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited. */
  readonly exited: Promise<Exit>;
  /** Sends the signal (SIGTERM by default) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<Exit>;
}

/** A posix gateway started by startGateway. */
export interface GatewayProcess extends AppProcess {
  readonly root: string;
}

export interface StartOptions {
  /** Gateway root; a fresh temp directory when omitted (the caller removes it). */
  readonly root?: string;
  /** Root account (passed as --access/--secret); ROOT_CREDENTIALS when omitted. */
  readonly credentials?: Credentials;
  /** Flags before the backend command. */
  readonly globalArgs?: readonly string[];
  /** Flags of the posix command, before the root. */
  readonly posixArgs?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** Throws, naming the command to run, when the app has not been built. */
export function assertBuilt(): void {
  if (!existsSync(APP_MAIN)) throw new Error(`${APP_MAIN} is missing: build first (npm run build)`);
}

/** Spawns `node dist/main.js` with a clean environment plus `env`; the child is tracked. */
export function spawnMain(args: readonly string[], env: Readonly<Record<string, string>> = {}): ChildProcess {
  assertBuilt();
  const child = spawn(process.execPath, [APP_MAIN, ...args], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return track(child);
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
  const out = collectOutput(child);
  const exit = await exitOf(child);
  return { ...exit, stdout: out.stdout(), stderr: out.stderr() };
}

const BANNER_ENDPOINT = /^\s*endpoint:\s+(https?:\/\/\S+)$/m;

/**
 * Starts the app with `args` (any backend command) and waits for its banner: the gateway it
 * answers as, with the port taken from the `endpoint:` line.
 */
export async function startApp(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<AppProcess> {
  const child = spawnMain(args, env);
  const out = collectOutput(child);
  const exited = exitOf(child);
  const url = await waitForStdout(child, out, exited, BANNER_ENDPOINT, 'the gateway banner');
  return {
    url,
    port: Number(new URL(url).port),
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

/** `--port 127.0.0.1:0 --access … --secret …`: the flags every test gateway starts with. */
export function loopbackArgs(credentials: Credentials = ROOT_CREDENTIALS): string[] {
  return ['--port', '127.0.0.1:0', '--access', credentials.access, '--secret', credentials.secret];
}

/** Starts `vgwrdma [globalArgs] posix [posixArgs] <root>` on 127.0.0.1:0 and waits for its banner. */
export async function startGateway(options: StartOptions = {}): Promise<GatewayProcess> {
  const root = options.root ?? (await makeTempDir());
  const args = [
    ...loopbackArgs(options.credentials),
    ...(options.globalArgs ?? []),
    'posix',
    ...(options.posixArgs ?? []),
    root,
  ];
  return { ...(await startApp(args, options.env)), root };
}
