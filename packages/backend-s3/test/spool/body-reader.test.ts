// The body reader: stretches of an exact size (a chunk crossing the boundary is split), every byte
// through the sinks once, the end told by reading ahead, the size bound, and a body that breaks
// off answered as IncompleteBody; the client's stream stays open between stretches.
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { PassThrough, Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { BodyReader } from '../../src/spool/body-reader.js';
import { Spool } from '../../src/spool/spool.js';

const spool = () => new Spool({ memoryBytes: 1 << 20, dir: tmpdir() });

describe('BodyReader', () => {
  it('fills stretches of the asked size, splitting chunks, and hashes every byte once', async () => {
    const chunks = [randomBytes(700), randomBytes(700), randomBytes(700)];
    const whole = Buffer.concat(chunks);
    const reader = new BodyReader(Readable.from(chunks), 10_000);
    const md5 = createHash('md5');
    const first = spool();
    await reader.fill(first, 1000, [md5]);
    expect(first.size).toBe(1000);
    expect(await reader.atEnd()).toBe(false);
    const second = spool();
    await reader.fill(second, 1000, [md5]);
    const third = spool();
    await reader.fill(third, 1000, [md5]);
    expect([first.size, second.size, third.size]).toEqual([1000, 1000, 100]);
    expect(await reader.atEnd()).toBe(true);
    const read = Buffer.concat([
      await buffer(first.body()),
      await buffer(second.body()),
      await buffer(third.body()),
    ]);
    expect(read.equals(whole)).toBe(true);
    expect(md5.digest('hex')).toBe(createHash('md5').update(whole).digest('hex'));
    for (const s of [first, second, third]) await s.dispose();
  });

  it('leaves the client stream open between stretches (the gateway still answers on it)', async () => {
    const source = new PassThrough();
    source.write(randomBytes(300));
    const reader = new BodyReader(source, 10_000);
    const s = spool();
    await reader.fill(s, 200, []);
    expect(source.destroyed).toBe(false);
    source.end();
    expect(await reader.atEnd()).toBe(false); // the 100 bytes past the stretch
    await s.dispose();
  });

  it('a body exactly one stretch long ends there', async () => {
    const reader = new BodyReader(Readable.from([randomBytes(500), randomBytes(500)]), 10_000);
    const s = spool();
    await reader.fill(s, 1000, []);
    expect(await reader.atEnd()).toBe(true);
    await s.dispose();
  });

  it('answers EntityTooLarge past its bound', async () => {
    const reader = new BodyReader(Readable.from([randomBytes(600), randomBytes(600)]), 1000);
    const s = spool();
    await expect(reader.fill(s, 5000, [])).rejects.toMatchObject({ code: 'EntityTooLarge' });
    await s.dispose();
  });

  it('a body that breaks off is IncompleteBody', async () => {
    const source = new PassThrough();
    const reader = new BodyReader(source, 10_000);
    source.write(randomBytes(100));
    const s = spool();
    const filling = reader.fill(s, 5000, []);
    setTimeout(() => source.destroy(new Error('client went away')), 10);
    await expect(filling).rejects.toMatchObject({ code: 'IncompleteBody' });
    expect(s.size).toBe(100);
    await s.dispose();
  });
});
