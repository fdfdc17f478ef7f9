// Runs fixtures/host-region-child.mjs: a HostClient with one region in a separate process (so it
// can be killed mid-transfer), optionally inside a network namespace (`ip netns exec`).
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { rdmaEnv } from '@vgwrdma/test-kit';

const FIXTURE = fileURLToPath(new URL('../fixtures/host-region-child.mjs', import.meta.url));

export interface RegionInfo {
  readonly port: number;
  readonly token: string;
  readonly md5: string;
}

export interface RegionChild {
  readonly child: ChildProcess;
  readonly info: RegionInfo;
  /** The region's MD5 now (after a GET wrote into it). */
  md5(): Promise<string>;
  kill(): void;
}

export interface RegionChildOptions {
  readonly size: number;
  readonly mode: 'put' | 'get';
  /** Address the agent listens on and puts in tokens; default 127.0.0.1. */
  readonly agentAddress?: string;
  /** Run inside this network namespace. */
  readonly netns?: string;
}

export async function startRegionChild(o: RegionChildOptions): Promise<RegionChild> {
  const args = [FIXTURE, String(o.size), o.mode, ...(o.agentAddress ? [o.agentAddress] : [])];
  const [cmd, argv] = o.netns
    ? ['ip', ['netns', 'exec', o.netns, process.execPath, ...args]]
    : [process.execPath, args];
  const child = spawn(cmd, argv, {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...rdmaEnv() },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  child.once('exit', () => process.off('exit', kill));
  const info = await new Promise<RegionInfo>((resolve, reject) => {
    child.once('message', resolve as (m: unknown) => void);
    child.once('exit', (code) => reject(new Error(`region child exited (${code}) before reporting`)));
  });
  child.removeAllListeners('exit');
  return {
    child,
    info,
    kill,
    md5: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve((m as { md5: string }).md5));
        child.send('md5');
      }),
  };
}
