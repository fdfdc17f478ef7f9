// The test run's Azurite (Microsoft's Azure Storage emulator, the root devDependency `azurite`):
// blob service only, in memory, on an ephemeral loopback port. Started on first use by whichever
// test file asks first, shared by every file and worker of the vitest run (they agree through a
// folder named after the run's vitest process), stopped when that process ends.
// VGW_TEST_AZURITE=<blob service URL with account> points the tests at one already running.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './paths.js';

/** Azurite's built-in development account (public, documented by Microsoft; not a secret). */
export const AZURITE_ACCOUNT = 'devstoreaccount1';
export const AZURITE_KEY =
  'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

export interface Azurite {
  /** The account's blob service URL: http://127.0.0.1:<port>/devstoreaccount1 */
  url: string;
  account: string;
  key: string;
}

const BIN = join(REPO_ROOT, 'node_modules', '.bin', 'azurite-blob');
const KEEPER = fileURLToPath(new URL('../src/azurite-keeper.mjs', import.meta.url));

/** undefined when Azurite can run here, else the reason to skip. */
export function azuriteUnavailable(): string | undefined {
  if (process.env.VGW_TEST_AZURITE) return undefined;
  if (!existsSync(BIN)) return `azurite is not installed (${BIN} missing): run npm run build`;
  return undefined;
}

let shared: Promise<Azurite> | undefined;

export function sharedAzurite(): Promise<Azurite> {
  shared ??= start();
  return shared;
}

async function start(): Promise<Azurite> {
  const given = process.env.VGW_TEST_AZURITE;
  if (given) return { url: given.replace(/\/$/, ''), account: AZURITE_ACCOUNT, key: AZURITE_KEY };
  const reason = azuriteUnavailable();
  if (reason) throw new Error(reason);
  // Workers are forks of the vitest process: its pid names the run.
  const owner = process.env.VITEST_POOL_ID === undefined ? process.pid : process.ppid;
  const dir = join(tmpdir(), `vgw-azurite-${owner}`);
  let first = true;
  try {
    mkdirSync(dir);
  } catch {
    first = false;
  }
  if (first) {
    const keeper = spawn(process.execPath, [KEEPER, String(owner), dir, BIN], {
      detached: true,
      stdio: 'ignore',
    });
    keeper.unref();
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    const state = join(dir, 'state.json');
    if (existsSync(state)) {
      const { port } = JSON.parse(readFileSync(state, 'utf8')) as { port: number };
      return {
        url: `http://127.0.0.1:${port}/${AZURITE_ACCOUNT}`,
        account: AZURITE_ACCOUNT,
        key: AZURITE_KEY,
      };
    }
    const error = join(dir, 'error.txt');
    if (existsSync(error)) throw new Error(`Azurite did not start: ${readFileSync(error, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`Azurite did not start within 60 s (state in ${dir})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
