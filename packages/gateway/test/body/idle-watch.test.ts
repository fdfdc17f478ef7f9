// The body idle timeout inside decodeBody: a body that stops sending fails with RequestTimeout,
// aws-chunked too; a body the consumer is slow to read (backpressure) is never cut however long
// the consumer waits; a body that keeps sending, however slowly, is never cut.
import { randomBytes } from 'node:crypto';
import { PassThrough } from 'node:stream';
import { isS3Error } from '@vgwrdma/backend-contract';
import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/body/decode-body.js';
import { collect } from '../../src/body/test-support/collect.js';

const IDLE_MS = 200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('body idle timeout', () => {
  it('fails a plain body that stops sending with RequestTimeout', async () => {
    const wire = new PassThrough();
    const decoded = decodeBody(
      wire,
      { 'content-length': '10' },
      { kind: 'unsigned' },
      { idleTimeoutMs: IDLE_MS },
    );
    wire.write('a');
    const result = await collect(decoded.stream);
    expect(isS3Error(result.error) && result.error.code).toBe('RequestTimeout');
    expect(result.ended).toBe(false);
  });

  it('fails an aws-chunked body that stops inside a chunk the same way', async () => {
    const wire = new PassThrough();
    const headers = { 'content-encoding': 'aws-chunked', 'x-amz-decoded-content-length': '10' };
    const payload = { kind: 'streaming-unsigned-trailer' } as const;
    const decoded = decodeBody(wire, headers, payload, { idleTimeoutMs: IDLE_MS });
    wire.write('a\r\nabc');
    const result = await collect(decoded.stream);
    expect(isS3Error(result.error) && result.error.code).toBe('RequestTimeout');
  });

  it('never cuts a body whose consumer is slow to read (the gateway is the one waiting)', async () => {
    const data = randomBytes(1 << 20);
    const wire = new PassThrough();
    const headers = { 'content-length': String(data.length) };
    const decoded = decodeBody(wire, headers, { kind: 'unsigned' }, { idleTimeoutMs: IDLE_MS });
    // Sent as fast as the wire takes it: the decoder's buffers fill and hold the rest back.
    for (let at = 0; at < data.length; at += 16_384) wire.write(data.subarray(at, at + 16_384));
    await sleep(IDLE_MS * 5); // nobody reads for five idle periods
    const done = collect(decoded.stream);
    wire.end();
    const result = await done;
    expect(result.error).toBeUndefined();
    expect(result.data.equals(data)).toBe(true);
  });

  it('never cuts a body that keeps sending, however slowly', async () => {
    const wire = new PassThrough();
    const decoded = decodeBody(
      wire,
      { 'content-length': '4' },
      { kind: 'unsigned' },
      { idleTimeoutMs: IDLE_MS },
    );
    const done = collect(decoded.stream);
    for (const byte of 'abcd') {
      wire.write(byte);
      await sleep(IDLE_MS / 5);
    }
    wire.end();
    const result = await done;
    expect(result.error).toBeUndefined();
    expect(result.data.toString()).toBe('abcd');
  });

  it('waits for ever with no limit (0)', async () => {
    const wire = new PassThrough();
    const decoded = decodeBody(wire, { 'content-length': '2' }, { kind: 'unsigned' }, { idleTimeoutMs: 0 });
    const done = collect(decoded.stream);
    wire.write('a');
    await sleep(IDLE_MS * 3);
    wire.end('b');
    const result = await done;
    expect(result.error).toBeUndefined();
    expect(result.data.toString()).toBe('ab');
  });
});
