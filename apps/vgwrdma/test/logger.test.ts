// Log levels from --debug/--quiet, and the --access-log FILE routing: the gateway's per-request
// lines go to the file, everything else stays with the process logger.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACCESS_LOG_MESSAGE, createLoggers, logLevel } from '../src/logger.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('logLevel', () => {
  it('follows --debug, then --quiet', () => {
    expect(logLevel({ debug: true, quiet: true })).toBe('debug');
    expect(logLevel({ debug: false, quiet: true })).toBe('warn');
    expect(logLevel({ debug: false, quiet: false })).toBe('info');
  });
});

describe('createLoggers', () => {
  it('asks for access-log lines unless quiet, when there is no file', () => {
    expect(createLoggers({ debug: false, quiet: false }).accessLog).toBe(true);
    expect(createLoggers({ debug: false, quiet: true }).accessLog).toBe(false);
  });

  it('routes only access-log lines to --access-log FILE, even when quiet', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'vgwrdma-log-'));
    dirs.push(dir);
    const file = join(dir, 'sub', 'access.log');
    const loggers = createLoggers({ debug: false, quiet: true, accessLog: file });
    expect(loggers.accessLog).toBe(true);
    loggers.gatewayLogger.info({ method: 'GET', url: '/b/k', status: 200 }, ACCESS_LOG_MESSAGE);
    loggers.gatewayLogger.info({ other: true }, 'not a request line');
    loggers.flush();
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      msg: 'request',
      method: 'GET',
      url: '/b/k',
      status: 200,
    });
  });
});
