// --shutdown-timeout: a real gateway process with an upload in flight (headers and 1 MiB of a
// declared 8 MiB body sent, the rest held back) gets SIGTERM. The drain waits the given time, then
// cuts the upload: its access-log line says status 499 and `cut: "shutdown"`, the last line says
// "stopped: 1 request cut", the upload's temp file in `<bucket>/.sgwtmp/` is gone before the
// process exits (status 0), and nothing was published under the key. A request that finishes in
// time is not cut (the positive control: 0 cut, its 200 line).

import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { ROOT_CREDENTIALS, runMain } from '@vgwrdma/test-kit';
import { scenePool } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';
import { openHeldRequest } from './helpers/held-request.js';

const DECLARED = 8 << 20;
const SENT = 1 << 20;

/** JSON log lines of the gateway's stderr. */
function logLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function tempFiles(root: string, bucket: string): Promise<string[]> {
  return readdir(join(root, bucket, '.sgwtmp')).catch(() => []);
}

const startPooled = scenePool('each');

describe('--shutdown-timeout', () => {
  it('cuts an upload still running at the deadline: a 499 "shutdown" line, its temp file removed, "1 request cut"', async () => {
    const { gw } = await startPooled({ globalArgs: ['--shutdown-timeout', '1'], buckets: ['drain'] });
    const upload = await openHeldRequest(gw.url, {
      method: 'PUT',
      path: '/drain/slow-upload',
      contentLength: DECLARED,
      credentials: ROOT_CREDENTIALS,
    });
    upload.send(Buffer.alloc(SENT, 7));
    // Settled state: the gateway has the upload's temp file and the 1 MiB sent is in it.
    await expect
      .poll(
        async () => {
          const files = await tempFiles(gw.root, 'drain');
          if (files.length !== 1) return 0;
          return (
            (await stat(join(gw.root, 'drain', '.sgwtmp', files[0] as string)).catch(() => undefined))
              ?.size ?? 0
          );
        },
        { timeout: 20_000 },
      )
      .toBe(SENT);
    const exit = await gw.stop('SIGTERM');
    expect(exit.code, gw.stderr()).toBe(0);
    expect(await upload.closed).toBe(''); // the connection was dropped, no answer
    const lines = logLines(gw.stderr());
    const cut = lines.filter((l) => l.msg === 'request' && l.cut === 'shutdown');
    expect(cut, gw.stderr()).toHaveLength(1);
    expect(cut[0]).toMatchObject({ status: 499, method: 'PUT', bucket: 'drain', key: 'slow-upload' });
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped: 1 request cut', requestsCut: 1 });
    expect(await tempFiles(gw.root, 'drain')).toEqual([]);
    expect(await readdir(join(gw.root, 'drain'))).not.toContain('slow-upload');
  });

  it('cuts nothing when every request finishes in time (0 requests cut)', async () => {
    const { gw, s3 } = await startPooled({ env: { VGW_SHUTDOWN_TIMEOUT: '5' } });
    await s3.send(new CreateBucketCommand({ Bucket: 'drain' }));
    await s3.send(new PutObjectCommand({ Bucket: 'drain', Key: 'k', Body: 'done' }));
    const exit = await gw.stop('SIGTERM');
    expect(exit.code).toBe(0);
    const lines = logLines(gw.stderr());
    expect(lines.filter((l) => l.cut !== undefined)).toEqual([]);
    expect(lines.at(-1)).toMatchObject({ msg: 'stopped: 0 requests cut', requestsCut: 0 });
  });

  it('refuses a value that is not a number of seconds', async () => {
    const r = await runMain(['--shutdown-timeout', 'soon', 'posix', '/nonexistent']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--shutdown-timeout "soon":\s+✖ must be a number of seconds/);
  });
});
