// Log injection (issue 30, hole 4): anyone, without an account, tried to add forged lines to the
// access log through the bucket segment (`GET /%0Aforged-line`), and to shift fields with spaces,
// quotes, tabs, CR/LF and Unicode line separators in the bucket, key, query, User-Agent, Referer
// and Host. Sent as raw bytes on a socket (no client would send them), to a gateway writing each
// format to its own file: the `s3` log has exactly one line per answered request, each with AWS's
// 29 fields in their places, and no refused bucket name in the bucket field; every JSON line
// parses and the values come back as sent. Positive control: the SDK's own requests (a key with
// spaces and a newline) are logged with the key where it belongs.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { GatewayProcess } from '@vgwrdma/test-kit';
import { sceneTest } from '@vgwrdma/test-kit/scene';
import { describe, expect } from 'vitest';
import { duplicateKeys, logLines, rawExchange, s3LogFields } from './helpers/access-log-lines.js';

const Bucket = 'inject-logs';
const HOSTILE_KEY = 'a b\n"c"\td';

/** Raw requests: [request line target, extra header lines]. Every one gets an answer from the app. */
const ATTACKS: ReadonlyArray<readonly [string, string]> = [
  ['/%0Aforged-line', ''],
  ['/%0A-%20forged%20%5B01/Jan/2026:00:00:00%20+0000%5D%20x/k', ''],
  ['/bad%20bucket%22name/key', ''],
  [`/${Bucket}/k%0Aey%20with%22quote%09tab%0D`, ''],
  [`/${Bucket}?prefix=%0A%22x%09y%20z&delimiter=%0D%0A`, ''],
  [`/${Bucket}/q"uote`, ''],
  [`/${Bucket}/k`, 'User-Agent: ua "quoted"\tnext \\\r\nReferer: http://r.example/"a b"\t\\\r\n'],
  [`/${Bucket}/k`, 'User-Agent: nel\x85 ls\xe2\x80\xa8 x\r\n'],
];

/** A gateway writing the `s3` format to s3.log, one writing JSON to json.log (in their scene folders). */
const s3Log = sceneTest((dir) => ({
  globalArgs: ['--access-log-format', 's3', '--access-log', join(dir, 's3.log')],
}));
const jsonLog = sceneTest((dir) => ({ globalArgs: ['--access-log', join(dir, 'json.log')] }));

describe('access log injection, both formats', () => {
  /** Sends every attack (and the SDK control) to `gw`; answers how many the app answered. */
  async function attack(gw: GatewayProcess, client: S3Client): Promise<number> {
    await client.send(new CreateBucketCommand({ Bucket }));
    await client.send(new PutObjectCommand({ Bucket, Key: HOSTILE_KEY, Body: 'x' }));
    let answered = 2;
    for (const [target, headers] of ATTACKS) {
      const reply = await rawExchange(
        gw.port,
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${gw.port}\r\n${headers}Connection: close\r\n\r\n`,
      );
      // Only answers from the app have a request id; Node's own 400 for a malformed line has none.
      if (/^x-amz-request-id:/im.test(reply)) answered++;
    }
    return answered;
  }

  s3Log(
    's3 format: one line per request, 29 fields each, no forged line, refused names not logged',
    async ({ scene }) => {
      const s3File = join(scene.dir, 's3.log');
      const answered = await attack(scene.gw, scene.s3);
      expect(answered).toBeGreaterThanOrEqual(ATTACKS.length); // Node itself may refuse the odd one
      await expect.poll(async () => logLines(await readFile(s3File, 'utf8')).length).toBe(answered);
      const text = await readFile(s3File, 'utf8');
      expect(text.split('\n').filter((l) => l !== '')).toHaveLength(answered);
      expect(/^[\x20-\x7e\n]*$/.test(text)).toBe(true); // nothing but printable ASCII and the newlines
      const rows = logLines(text).map(s3LogFields);
      for (const [i, f] of rows.entries()) expect(f, logLines(text)[i]).toBeDefined();
      const fields = rows as string[][];
      for (const f of fields) expect(f).toHaveLength(29);
      // No line starts with anything but the bucket-owner dash: nothing forged a record of its own.
      for (const line of logLines(text)) expect(line.startsWith('- ')).toBe(true);
      const [create, put, forged, forgedTime, badName] = fields;
      expect(create?.[1]).toBe(Bucket);
      expect(put?.[6]).toBe('REST.PUT.OBJECT');
      expect(decodeURIComponent(put?.[7] ?? '')).toBe(HOSTILE_KEY); // the key where it belongs
      for (const refused of [forged, forgedTime, badName]) {
        expect(refused?.[1]).toBe('-'); // the refused name is not a bucket
        expect(refused?.[9]).toBe('400');
        expect(refused?.[10]).toBe('InvalidBucketName');
      }
      expect(forged?.[8]).toBe('GET /%0Aforged-line HTTP/1.1');
      const withAgent = fields.find((f) => f[16]?.startsWith('ua '));
      expect(withAgent?.[16]).toBe('ua %22quoted%22%09next %5C');
      expect(withAgent?.[15]).toBe('http://r.example/%22a b%22%09%5C');
      const unicode = fields.find((f) => f[16]?.startsWith('nel'));
      expect(unicode?.[16]).toBe('nel%C2%85 ls%C3%A2%C2%80%C2%A8 x');
    },
  );

  jsonLog(
    'JSON format: every line parses, one per request, values as sent, no duplicate keys',
    async ({ scene }) => {
      const jsonFile = join(scene.dir, 'json.log');
      const answered = await attack(scene.gw, scene.s3);
      await expect.poll(async () => (await readFile(jsonFile, 'utf8')).split('\n').length - 1).toBe(answered);
      const text = await readFile(jsonFile, 'utf8');
      const lines = text.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(answered);
      const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const l of lines) expect(duplicateKeys(l)).toEqual([]);
      for (const r of records) expect(r.msg).toBe('request');
      const put = records.find((r) => r.operation === 'PutObject');
      expect(put?.key).toBe(HOSTILE_KEY);
      const forged = records.find((r) => r.url === '/%0Aforged-line');
      expect(forged).toMatchObject({ status: 400, errorCode: 'InvalidBucketName', bucket: '' });
      expect(
        records.find((r) => typeof r.userAgent === 'string' && r.userAgent.startsWith('ua '))?.userAgent,
      ).toBe('ua "quoted"\tnext \\');
    },
  );
});
