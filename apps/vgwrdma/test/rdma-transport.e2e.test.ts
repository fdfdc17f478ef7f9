// `vgwrdma --rdma-transport cuobj` on a machine without NVIDIA's cuObject library (every machine
// of this project): the built bin exits 1 at start with one line, one sentence naming the
// missing library — not an errno, not a stack. (Hosts with the library: see
// docs/hardware-checklist.md.)
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { runMain } from '@vgwrdma/test-kit';
import { appWorkDir } from '@vgwrdma/test-kit/scene';
import { describe, expect, it } from 'vitest';

const work = appWorkDir('vgwrdma-transport-');

describe('vgwrdma --rdma-transport cuobj without libcuobjserver', () => {
  it('fails at start with one sentence naming the missing library', async () => {
    const root = join(work(), 'root');
    await mkdir(root);
    const run = await runMain([
      '--port',
      '127.0.0.1:0',
      '--access',
      'ak',
      '--secret',
      'sk',
      '--rdma-ip',
      '127.0.0.1',
      '--rdma-transport',
      'cuobj',
      'posix',
      root,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(''); // no banner: nothing started
    // the JSON log lines aside (the native loader's start line comes first), one sentence
    const lines = run.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('{'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^vgwrdma: cuobj transport unavailable: NVIDIA libcuobjserver\.so is not part of this build \(/,
    );
  });
});
