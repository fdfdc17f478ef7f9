// Throughput check (not a test): decodes 512 MiB of aws-chunked through decodeBody() and prints
// GB/s for each payload mode. The encoded body is built once in memory and fed as 64 KiB slices
// that straddle chunk frames, like socket reads; the consumer only counts bytes.
//
//   npx tsx bench/decode-chunked.ts [MiB] [chunkKiB]
//
// 'cpu' is the process CPU time of the run: on a shared machine it shows the decoder's own cost
// when the wall-clock figure is dragged down by other load.
import { createHash, createHmac } from 'node:crypto';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { PayloadMode } from '../src/auth/index.js';
import { decodeBody } from '../src/body/index.js';

const MIB = Number(process.argv[2] ?? 512);
const CHUNK = Number(process.argv[3] ?? 64) * 1024;
const READ = 64 * 1024;
const TOTAL = MIB * 1024 * 1024;

const signing = {
  seedSignature: 'a'.repeat(64),
  signingKey: createHmac('sha256', 'bench').update('key').digest(),
  amzDate: '20261129T080000Z',
  scope: '20261129/us-east-1/s3/aws4_request',
};
const EMPTY = createHash('sha256').digest('hex');

/** The whole encoded body; chunk data is one shared pattern, so only signatures differ. */
function encode(signed: boolean): Buffer {
  const data = Buffer.alloc(CHUNK);
  for (let i = 0; i < CHUNK; i += 4) data.writeUInt32LE((i * 2654435761) >>> 0, i);
  const digest = createHash('sha256').update(data).digest('hex');
  const pieces: Buffer[] = [];
  let previous = signing.seedSignature;
  const header = (size: number, hash: string) => {
    if (!signed) return Buffer.from(`${size.toString(16)}\r\n`);
    const sts = `AWS4-HMAC-SHA256-PAYLOAD\n${signing.amzDate}\n${signing.scope}\n${previous}\n${EMPTY}\n${hash}`;
    previous = createHmac('sha256', signing.signingKey).update(sts).digest('hex');
    return Buffer.from(`${size.toString(16)};chunk-signature=${previous}\r\n`);
  };
  const crlf = Buffer.from('\r\n');
  for (let sent = 0; sent < TOTAL; sent += CHUNK) pieces.push(header(CHUNK, digest), data, crlf);
  pieces.push(header(0, EMPTY));
  const trailer = 'x-amz-checksum-crc32:AAAAAA==';
  pieces.push(Buffer.from(`${trailer}\r\n`));
  if (signed) {
    const digest = createHash('sha256').update(`${trailer}\n`).digest('hex');
    const sts = `AWS4-HMAC-SHA256-TRAILER\n${signing.amzDate}\n${signing.scope}\n${previous}\n${digest}`;
    pieces.push(
      Buffer.from(
        `x-amz-trailer-signature:${createHmac('sha256', signing.signingKey).update(sts).digest('hex')}\r\n`,
      ),
    );
  }
  pieces.push(Buffer.from('\r\n'));
  return Buffer.concat(pieces);
}

async function run(name: string, payload: PayloadMode, body: Buffer): Promise<void> {
  const source = Readable.from(
    (function* () {
      for (let at = 0; at < body.length; at += READ)
        yield body.subarray(at, Math.min(at + READ, body.length));
    })(),
  );
  const headers = {
    'content-encoding': 'aws-chunked',
    'x-amz-decoded-content-length': String(TOTAL),
    'x-amz-trailer': 'x-amz-checksum-crc32',
  };
  const start = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  const decoded = decodeBody(source, headers, payload);
  let bytes = 0;
  decoded.stream.on('data', (part: Buffer) => {
    bytes += part.length;
  });
  await finished(decoded.stream);
  if (decoded.trailer('x-amz-checksum-crc32') !== 'AAAAAA==') throw new Error(`${name}: trailer missing`);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (bytes !== TOTAL) throw new Error(`${name}: decoded ${bytes} of ${TOTAL} bytes`);
  const rss = process.memoryUsage().rss / 2 ** 20;
  console.log(
    `${name.padEnd(44)} ${(bytes / seconds / 1e9).toFixed(2)} GB/s  (${MIB} MiB in ${seconds.toFixed(3)} s, cpu ${cpuSeconds.toFixed(3)} s, rss ${rss.toFixed(0)} MiB)`,
  );
}

console.log(
  `aws-chunked decode: ${MIB} MiB, ${CHUNK / 1024} KiB chunks, ${READ / 1024} KiB reads, node ${process.version}`,
);
{
  const unsigned = encode(false);
  await run('STREAMING-UNSIGNED-PAYLOAD-TRAILER', { kind: 'streaming-unsigned-trailer' }, unsigned);
  await run('STREAMING-UNSIGNED-PAYLOAD-TRAILER (again)', { kind: 'streaming-unsigned-trailer' }, unsigned);
}
const signed = encode(true);
await run(
  'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER',
  { kind: 'streaming-signed', trailer: true, ...signing },
  signed,
);
await run(
  'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER (again)',
  { kind: 'streaming-signed', trailer: true, ...signing },
  signed,
);
