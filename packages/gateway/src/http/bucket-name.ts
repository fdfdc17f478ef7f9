// S3 bucket naming rules (general purpose buckets), checked before anything touches a backend.
import { S3Error } from '@vgwrdma/backend-contract';

const SHAPE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const IPV4 = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const RESERVED_PREFIXES = ['xn--', 'sthree-', 'amzn-s3-demo-'];
const RESERVED_SUFFIXES = ['-s3alias', '--ol-s3', '.mrap', '--x-s3', '--table-s3'];

export function isValidBucketName(name: string): boolean {
  if (!SHAPE.test(name)) return false;
  if (IPV4.test(name)) return false;
  if (name.includes('..') || name.includes('.-') || name.includes('-.')) return false;
  if (RESERVED_PREFIXES.some((p) => name.startsWith(p))) return false;
  if (RESERVED_SUFFIXES.some((s) => name.endsWith(s))) return false;
  return true;
}

export function assertValidBucketName(name: string): void {
  if (!isValidBucketName(name))
    throw new S3Error('InvalidBucketName', undefined, { detail: { BucketName: name } });
}
