// The softnic benchmark runs end to end at a small size and prints the agreed JSON shape with
// every transfer verified. It asserts the shape and `verified`, never a figure or a time.

import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const positive = expect.any(Number);

describe('bench/softnic/run.mjs', () => {
  it('prints one verified JSON object with every figure', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['bench/softnic/run.mjs', '--json', '--size', '4MiB', '--iterations', '1'],
      { cwd: root },
    );
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const res = JSON.parse(lines[0]!);
    expect(res).toMatchObject({
      direct: { putGBps: positive, getGBps: positive },
      tcp: { putGBps: positive, getGBps: positive },
      ceiling: { memcpyGBps: positive, processVmWritevGBps: positive },
      sizeBytes: 4 * 1024 * 1024,
      verified: true,
    });
    for (const v of [res.direct, res.tcp, res.ceiling].flatMap((o) => Object.values(o))) {
      expect(v as number).toBeGreaterThan(0);
    }
    expect(res.failures).toBeUndefined();
  });
});
