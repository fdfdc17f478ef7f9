// The access log end to end: --access-log-format s3 writes AWS's server access log format (fields
// in AWS's order, then vgwrdma's three RDMA fields) for real SDK requests; bad values of the new
// flags stop the start naming the flag; on a terminal (a pty from util-linux `script`) the
// process log is pino-pretty's human-readable lines, not JSON.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { APP_MAIN, loopbackArgs, ROOT_CREDENTIALS, runMain, startGateway, track } from '@vgwrdma/test-kit';
import { expectS3Error, sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';

/** Splits one line on spaces, keeping "quoted fields" (quotes removed) and [the time] whole. */
function fields(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"|(\[[^\]]*\])|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

const test = sceneTest((dir) => ({
  globalArgs: ['--access-log-format', 's3', '--access-log', join(dir, 'access.log')],
}));

describe('vgwrdma --access-log-format s3', () => {
  test("writes AWS's fields in AWS's order, '-' for what does not apply", async ({ scene, s3: sdk }) => {
    const gw = scene.gw;
    const file = join(scene.dir, 'access.log');
    await sdk.send(new CreateBucketCommand({ Bucket: 'logged' }));
    await sdk.send(new PutObjectCommand({ Bucket: 'logged', Key: 'dir/a b.txt', Body: new Uint8Array(321) }));
    await expectS3Error(sdk.send(new GetObjectCommand({ Bucket: 'logged', Key: 'nope' })), 'NoSuchKey');
    // A line is written once its response has gone out, so the client can be told first: wait
    // for the third line instead of reading the file at one moment.
    const read = async () => (await readFile(file, 'utf8')).trim().split('\n').map(fields);
    await expect.poll(async () => (await read()).length).toBe(3);
    const lines = await read();
    for (const f of lines) expect(f).toHaveLength(29);
    const [create, put, get] = lines as [string[], string[], string[]];
    expect(create[6]).toBe('REST.PUT.BUCKET');

    expect(put[0]).toBe('-'); // bucket owner: no canonical ids here
    expect(put[1]).toBe('logged');
    expect(put[2]).toMatch(/^\[\d{2}\/[A-Z][a-z]{2}\/\d{4}:\d{2}:\d{2}:\d{2} \+0000\]$/);
    expect(put[3]).toBe('127.0.0.1');
    expect(put[4]).toBe(ROOT_CREDENTIALS.access);
    expect(put[5]).toMatch(/^[0-9A-F]{16}$/);
    expect(put[6]).toBe('REST.PUT.OBJECT');
    expect(put[7]).toBe('dir/a%20b.txt');
    expect(put[8]).toBe('PUT /logged/dir/a%20b.txt?x-id=PutObject HTTP/1.1');
    expect(put[9]).toBe('200');
    expect(put[10]).toBe('-'); // no error
    expect(put[11]).toBe('-'); // no body sent
    expect(put[12]).toBe('321'); // object size
    expect(Number(put[13])).toBeGreaterThanOrEqual(Number(put[14])); // total ≥ turn-around
    expect(put[15]).toBe('-'); // referer
    expect(put[16]).toMatch(/aws-sdk-js/);
    expect(put[18]).toBe(Buffer.from(put[5] ?? '', 'latin1').toString('base64')); // host id = x-amz-id-2
    expect(put[19]).toBe('SigV4'); // signature version
    expect(put[20]).toBe('-'); // cipher suite: plain HTTP
    expect(put[21]).toBe('AuthHeader'); // authentication type
    expect(put[22]).toBe(`127.0.0.1:${gw.port}`);
    expect(put[23]).toBe('-'); // TLS version: plain HTTP
    expect(put.slice(26)).toEqual(['http', '-', '-']);

    expect(get[6]).toBe('REST.GET.OBJECT');
    expect(get[7]).toBe('nope');
    expect(get[9]).toBe('404');
    expect(get[10]).toBe('NoSuchKey');
    expect(Number(get[11])).toBeGreaterThan(0); // the error document
    expect(get[12]).toBe('-');
  });
});

describe('observability flags and terminal logs', () => {
  it('refuses a bad --access-log-format or --metrics-port, naming the flag', async () => {
    const format = await runMain([...loopbackArgs(), '--access-log-format', 'xml', 'posix', '/tmp']);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(/invalid --access-log-format "xml":[\s\S]*must be 'json' or 's3'/);
    const port = await runMain([...loopbackArgs(), '--metrics-port', 'localhost', 'posix', '/tmp']);
    expect(port.code).toBe(2);
    expect(port.stderr).toMatch(/--metrics-port/);
  });

  it('writes pino-pretty lines when stderr is a terminal, JSON when it is not', async () => {
    const root = await mkdtemp(join(tmpdir(), 'vgwrdma-tty-'));
    try {
      // `script` gives the child a pty for stdin/stdout/stderr; its output is what the terminal shows.
      const cmd = [process.execPath, APP_MAIN, ...loopbackArgs(), 'posix', root]
        .map((a) => `'${a}'`)
        .join(' ');
      const child = track(
        spawn('script', ['-qfec', cmd, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'] }),
      );
      let seen = '';
      child.stdout?.on('data', (b: Buffer) => {
        seen += b.toString();
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      await expect.poll(() => seen, { timeout: 20_000 }).toMatch(/gateway listening/);
      child.kill('SIGTERM');
      await exited;
      const line = seen.split('\n').find((l) => l.includes('gateway listening')) ?? '';
      expect(line).toMatch(/INFO/);
      expect(line).toContain('\u001b['); // colour
      expect(line).not.toMatch(/^\s*\{"level"/);
      // The same start without a terminal: JSON lines.
      const plain = await startGateway({ root });
      await plain.stop();
      expect(plain.stderr()).toMatch(/^\{"level":30,.*"msg":"gateway listening"/m);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
