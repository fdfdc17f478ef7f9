// Starts gateway-child.mjs (the in-process gateway with the RDMA plugin) as a child process and
// waits for the port it prints. The caller owns the backend's directory; stop() sends SIGTERM (the
// gateway's ordered shutdown) and waits for the exit.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

/** The script, for callers that spawn it themselves (the bench). */
// From src/ (tests) and from dist/ alike: the script is not built, it stays in src/.
export const GATEWAY_CHILD_SCRIPT = fileURLToPath(new URL('../src/gateway-child.mjs', import.meta.url));

/** What gateway-child.mjs takes (gateway-child-schema.mjs checks it; defaults are filled in there). */
export interface GatewayChildOptions {
  /** The gateway's one credential, an admin account. */
  readonly access: string;
  readonly secret: string;
  readonly backend:
    | { readonly kind: 'posix'; readonly root: string }
    | {
        readonly kind: 's3';
        readonly endpoint: string;
        readonly access: string;
        readonly secret: string;
        readonly metaBucket?: string;
      };
  /** false: no RDMA plugin. Default: softnic with 4 channels, 4 × 16 MiB buffers, 30 s pool wait. */
  readonly rdma?:
    | false
    | {
        readonly channels?: number;
        readonly ioTimeoutMs?: number;
        readonly pool?: { readonly count: number; readonly size: number };
        readonly poolWaitMs?: number;
        readonly maxTransferSize?: number;
        readonly putLanes?: 1 | 2;
        readonly maxPerAgent?: number;
      };
}

export interface GatewayChild {
  readonly pid: number;
  readonly port: number;
  /** http://127.0.0.1:<port> */
  readonly endpoint: string;
  /** What the child wrote on stderr so far (its warnings and errors). */
  stderr(): string;
  /** SIGTERM, then waits for the exit. Idempotent. */
  stop(): Promise<void>;
}

/** Spawns the gateway child; rejects with its exit code and stderr when it exits before listening. */
export async function startGatewayChild(options: GatewayChildOptions): Promise<GatewayChild> {
  const child = spawn(process.execPath, [GATEWAY_CHILD_SCRIPT, JSON.stringify(options)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const port = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve((JSON.parse(line) as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`gateway child exited with ${code}: ${err}`)));
  });
  child.removeAllListeners('exit');
  return {
    pid: child.pid ?? -1,
    port,
    endpoint: `http://127.0.0.1:${port}`,
    stderr: () => err,
    stop: () => stopChild(child),
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
