// The HAProxy helper: the configuration docs/deployment.md shows is the one haproxyConfig writes,
// haproxy accepts it, and a started haproxy routes every request around a dead server.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkInProgress,
  DOC_HAPROXY_EXAMPLE,
  freePort,
  HAPROXY_BIN,
  haproxyConfig,
  haproxyUnavailable,
  makeTempDir,
  parseServerStats,
  REPO_ROOT,
  removeDir,
  settled,
  startHaproxy,
} from '../src/index.js';

const skip = haproxyUnavailable();
if (skip) console.log(`haproxy tests skipped: ${skip}`);

describe('haproxyConfig', () => {
  it('is the configuration docs/deployment.md shows', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'deployment.md'), 'utf8');
    const block =
      /<!-- haproxy\.cfg: haproxyConfig\(DOC_HAPROXY_EXAMPLE\) -->\n```haproxy\n([\s\S]*?)```/.exec(doc);
    expect(block?.[1], 'docs/deployment.md has the marked haproxy.cfg block').toBe(
      haproxyConfig(DOC_HAPROXY_EXAMPLE),
    );
  });

  it.skipIf(skip !== undefined)('is accepted by haproxy -c', async () => {
    const dir = await makeTempDir('vgwrdma-haproxy-check-');
    try {
      const file = join(dir, 'haproxy.cfg');
      await writeFile(file, haproxyConfig(DOC_HAPROXY_EXAMPLE));
      expect(execFileSync(HAPROXY_BIN, ['-c', '-f', file], { encoding: 'utf8' })).toMatch(/valid/i);
    } finally {
      await removeDir(dir);
    }
  });
});

describe('settled', () => {
  // `show stat` rows as haproxy prints them: `* L7OK` is a check in progress (the last result
  // was L7OK), so the row is a moment, not a settled state.
  const csv = [
    '# pxname,svname,status,check_status,check_code',
    'gateways,a,UP,L7OK,200',
    'gateways,b,UP,* L7OK,200',
    'gateways,c,UP,INI,',
    'gateways,d,DOWN,* L4CON,',
    'gateways,e,UP 1/2,L7OK,200',
    'gateways,BACKEND,UP,,',
  ].join('\n');
  const stats = parseServerStats(csv);

  it('is a result, not a check in progress', () => {
    expect(settled(stats.a, 'UP')).toBe(true);
    expect(checkInProgress(stats.b)).toBe(true);
    expect(settled(stats.b, 'UP')).toBe(false);
    expect(settled(stats.c, 'UP')).toBe(false);
    expect(settled(stats.d, 'DOWN')).toBe(false);
    expect(settled(stats.e, 'UP')).toBe(false);
    expect(checkInProgress(stats.a)).toBe(false);
  });
});

describe.skipIf(skip !== undefined)('startHaproxy', () => {
  const servers: Server[] = [];
  afterAll(() => {
    for (const s of servers) s.close();
  });

  function answering(name: string): Promise<number> {
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(req.url === '/ready' ? 'ready' : name);
    });
    servers.push(server);
    return new Promise((resolve) =>
      server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
    );
  }

  it('balances over the live servers and routes around a dead one', async () => {
    const a = await answering('a');
    const b = await answering('b');
    const dead = await freePort(); // nothing listens there
    const lb = await startHaproxy({
      servers: [
        { name: 'a', address: `127.0.0.1:${a}` },
        { name: 'dead', address: `127.0.0.1:${dead}` },
        { name: 'b', address: `127.0.0.1:${b}` },
      ],
    });
    try {
      const seen: string[] = [];
      // Before the first check marks it down, a request sent to `dead` is redispatched.
      for (let i = 0; i < 12; i++) {
        const res = await fetch(`${lb.url}/object-${i}`);
        expect(res.status).toBe(200);
        seen.push(await res.text());
      }
      expect(new Set(seen)).toEqual(new Set(['a', 'b']));
      const stats = await lb.serverStats();
      expect(Number(stats.a?.hrsp_2xx) + Number(stats.b?.hrsp_2xx)).toBe(12);
      await lb.waitFor('DOWN', ['dead']);
      await lb.waitFor('UP', ['a', 'b']);
      // A wait that fails says what haproxy's checks saw and what haproxy logged.
      const failed = await lb.waitFor('UP', ['dead'], 300).then(
        () => 'resolved',
        (e: Error) => e.message,
      );
      expect(failed).toMatch(/dead status=DOWN check_status=L4CON .*chkdown=1/);
      expect(failed).toMatch(/a status=UP check_status=L7OK check_code=200 /);
      expect(failed).toMatch(/haproxy's stderr ends: .*Server gateways\/dead is DOWN, reason: /);
    } finally {
      await lb.stop();
    }
    expect(lb.child.exitCode !== null || lb.child.signalCode !== null).toBe(true);
  });
});
