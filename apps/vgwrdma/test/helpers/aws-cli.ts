// The AWS CLI runner lives in the test kit (the scene's `aws` fixture uses it); this module keeps
// the app tests' old import path working and adds the round trip the CLI suites share.
import { join } from 'node:path';
import { type AwsRunner, awsOk } from '@vgwrdma/test-kit';
import { sha256File, writeRandomFile } from './files.js';

export { AWS_BIN, type AwsOptions, type AwsRunner, awsCli, awsOk, type CliResult } from '@vgwrdma/test-kit';

/** `aws s3api <args> --output json`, parsed. */
export async function s3api<T>(aws: AwsRunner, args: readonly string[]): Promise<T> {
  return JSON.parse(await awsOk(aws, ['s3api', ...args, '--output', 'json'])) as T;
}

export interface RoundTrip {
  /** head-object's answer for the uploaded object. */
  readonly head: { ContentLength: number; ETag: string };
  /** SHA-256 of the file sent and of the file read back. */
  readonly sent: string;
  readonly received: string;
}

/**
 * `aws s3 cp` of a random file of `size` bytes (in `work`) to s3://bucket/key — a multipart upload
 * past the CLI's 8 MiB threshold — then head-object, then `aws s3 cp` back down.
 */
export async function cpRoundTrip(
  aws: AwsRunner,
  work: string,
  bucket: string,
  key: string,
  size: number,
): Promise<RoundTrip> {
  const up = join(work, 'big.bin');
  const down = join(work, 'big.down');
  await writeRandomFile(up, size);
  await awsOk(aws, ['s3', 'cp', up, `s3://${bucket}/${key}`]);
  const head = await s3api<RoundTrip['head']>(aws, ['head-object', '--bucket', bucket, '--key', key]);
  await awsOk(aws, ['s3', 'cp', `s3://${bucket}/${key}`, down]);
  return { head, sent: await sha256File(up), received: await sha256File(down) };
}
