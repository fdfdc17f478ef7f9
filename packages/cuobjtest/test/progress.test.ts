import { describe, expect, it } from 'vitest';
import { progressLine } from '../src/progress.js';

function target(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (t: string) => writes.push(t) };
}

describe('progress line', () => {
  it('is drawn and cleared on a TTY', () => {
    const t = target(true);
    const p = progressLine(t, {}, false);
    p.show('rdma 64MiB PUT 1/3');
    p.clear();
    p.clear(); // nothing shown: nothing to clear
    expect(t.writes).toEqual(['\r\x1b[2Krdma 64MiB PUT 1/3 ...', '\r\x1b[2K']);
  });

  it.each([
    ['not a TTY', false, {}, false],
    ['under CI', true, { CI: 'true' }, false],
    ['with --json', true, {}, true],
  ])('stays silent %s', (_name, isTTY, env, json) => {
    const t = target(isTTY);
    const p = progressLine(t, env, json);
    p.show('x');
    p.clear();
    expect(t.writes).toEqual([]);
  });
});
