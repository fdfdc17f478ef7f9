// A real browser for the web console's tests: Debian's chromium (/usr/bin/chromium), headless,
// driven by playwright-core over CDP, with a fresh profile folder per launch and everything that
// would reach out (updates, sync, QUIC, background networking) turned off. Tests skip, saying why,
// where the browser is not installed.
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir, REPO_ROOT, removeDir } from '@vgwrdma/test-kit';
import { type BrowserContext, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or undefined when they can. */
export function browserMissing(): string | undefined {
  return existsSync(CHROMIUM)
    ? undefined
    : `${CHROMIUM} is not installed (apt-get install -y chromium; .ci/run installs it)`;
}

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Launches chromium with a new profile folder (removed on close). */
export async function launchBrowser(): Promise<Browser> {
  const profile = await makeTempDir('webui-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    acceptDownloads: true,
    viewport: { width: 1100, height: 720 },
    colorScheme: 'light',
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => {});
      await removeDir(profile);
    },
  };
}

/** Where the test run leaves its screenshots (git-ignored), created on first use. */
export async function screenshotDir(): Promise<string> {
  const dir = join(REPO_ROOT, 'apps', 'vgwrdma', '.webui-screenshots');
  await mkdir(dir, { recursive: true });
  return dir;
}
