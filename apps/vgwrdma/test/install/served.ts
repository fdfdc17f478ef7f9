// A gateway started from an installed command (the global `vgwrdma`, or `node custom-gateway.mjs`)
// as a user would start it: its endpoint read from the `endpoint:` line it prints on stdout.
import { spawn } from 'node:child_process';
import { collectOutput, exitOf, track, waitForStdout } from '@vgwrdma/test-kit';

export interface Served {
  readonly endpoint: string;
  readonly pid: number;
  stderr(): string;
  /** SIGTERM, then the exit status (null after a kill). */
  stop(): Promise<number | null>;
}

const ENDPOINT = /^\s*endpoint:\s+(http:\/\/\S+?)\/?$/m;

export async function serve(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<Served> {
  const child = track(spawn(command, [...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] }));
  const out = collectOutput(child);
  const exited = exitOf(child);
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  try {
    const endpoint = await waitForStdout(child, out, exited, ENDPOINT, `${command}'s endpoint line`);
    return {
      endpoint,
      pid: child.pid ?? -1,
      stderr: out.stderr,
      async stop() {
        child.kill('SIGTERM');
        return (await exited).code;
      },
    };
  } finally {
    clearTimeout(timer);
  }
}
