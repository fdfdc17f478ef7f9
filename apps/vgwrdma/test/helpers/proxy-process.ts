// Starts the BUILT gateway as an s3 proxy (`vgwrdma ... s3 --endpoint <upstream> ...`) on a free
// loopback port and learns the port from the banner, like gateway-process.ts does for posix.
import { type ChildProcess, spawn } from 'node:child_process';
import { assertBuilt, MAIN } from './gateway-process.js';

export interface ProxyProcess {
  readonly url: string;
  readonly child: ChildProcess;
  stdout(): string;
  stderr(): string;
  stop(): Promise<void>;
}

export async function startProxyGateway(
  root: { readonly access: string; readonly secret: string },
  s3Args: readonly string[],
  globalArgs: readonly string[] = [],
): Promise<ProxyProcess> {
  assertBuilt();
  const child = spawn(
    process.execPath,
    [
      MAIN,
      '--port',
      '127.0.0.1:0',
      '--access',
      root.access,
      '--secret',
      root.secret,
      ...globalArgs,
      's3',
      ...s3Args,
    ],
    { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  let stdout = '';
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (c: string) => {
    stderr += c;
  });
  const closed = new Promise<void>((r) => child.once('close', () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
      const m = /^\s*endpoint:\s+(http:\/\/\S+)$/m.exec(stdout);
      if (m?.[1]) resolve(m[1]);
    });
    void closed.then(() => reject(new Error(`proxy gateway exited before its banner:\n${stderr}`)));
  });
  return {
    url,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: async () => {
      process.off('exit', kill);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await closed;
    },
  };
}
