import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signingKey } from '../../src/auth/signing.js';

const derive = (secret: string, date: string, region: string, service: string) =>
  [date, region, service, 'aws4_request'].reduce<Buffer | string>(
    (key, part) => createHmac('sha256', key).update(part).digest(),
    `AWS4${secret}`,
  );

describe('signingKey', () => {
  it('derives the SigV4 key and serves repeats from its cache', () => {
    const a = signingKey('secret-a', '20261129', 'us-east-1', 's3');
    expect(a).toEqual(derive('secret-a', '20261129', 'us-east-1', 's3'));
    expect(signingKey('secret-a', '20261129', 'us-east-1', 's3')).toBe(a);
  });

  it('keys on every input: another date, region, service or secret is another key', () => {
    const a = signingKey('secret-a', '20261129', 'us-east-1', 's3');
    for (const [secret, date, region, service] of [
      ['secret-a', '20261130', 'us-east-1', 's3'],
      ['secret-a', '20261129', 'eu-west-1', 's3'],
      ['secret-a', '20261129', 'us-east-1', 'iam'],
      ['secret-b', '20261129', 'us-east-1', 's3'],
    ] as const) {
      const k = signingKey(secret, date, region, service);
      expect(k).toEqual(derive(secret, date, region, service));
      expect(k.equals(a)).toBe(false);
    }
  });
});
