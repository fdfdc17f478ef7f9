// End to end with the real client: the x-amz-checksum-* values @aws-sdk/client-s3@3.1175.0 puts
// on a PutObject equal what the registry computes for the same bytes (no server involved; a
// request handler captures the request).

import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { CHECKSUMS, checksumHeader } from '../src/index.js';
import { CHECKSUM_ALGORITHMS, type ChecksumAlgorithm } from '../src/types/common.js';

async function headersSentBySdk(body: Uint8Array, alg: ChecksumAlgorithm): Promise<Record<string, string>> {
  let captured: Record<string, string> = {};
  const client = new S3Client({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
    requestHandler: {
      handle: async (request: { headers: Record<string, string> }) => {
        captured = request.headers;
        return { response: { statusCode: 200, headers: { etag: '"x"' }, body: Readable.from([]) } };
      },
    },
  });
  await client.send(new PutObjectCommand({ Bucket: 'b', Key: 'k', Body: body, ChecksumAlgorithm: alg }));
  client.destroy();
  return Object.fromEntries(Object.entries(captured).map(([k, v]) => [k.toLowerCase(), v]));
}

describe('checksums the AWS SDK sends', () => {
  it.each(CHECKSUM_ALGORITHMS)('%s header value equals the registry digest', async (alg) => {
    for (const size of [0, 1, 4097, 100_000]) {
      const data = randomBytes(size);
      const headers = await headersSentBySdk(data, alg);
      const h = CHECKSUMS[alg].create();
      h.update(data);
      expect(headers[checksumHeader(alg)], `size ${size}: ${JSON.stringify(Object.keys(headers))}`).toBe(
        h.digest(),
      );
    }
  });
});
