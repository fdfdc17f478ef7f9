// Runs a short boto3 program against a gateway: the Python S3 client, as the s3-tests suite and
// many users drive S3 (it asks for encoding-type=url on every listing and decodes the answer
// itself). Debian's /usr/bin/python3 (python3-boto3) is preferred, then the first python3 on
// PATH that can import boto3; BOTO3_PYTHON is undefined when none can, and tests skip.
import { execFile, execFileSync } from 'node:child_process';
import { delimiter, join } from 'node:path';

function canImportBoto3(python: string): boolean {
  try {
    execFileSync(python, ['-c', 'import boto3'], { stdio: 'ignore', timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

function findPython(): string | undefined {
  const candidates = [
    '/usr/bin/python3',
    ...(process.env.PATH ?? '').split(delimiter).flatMap((d) => (d === '' ? [] : [join(d, 'python3')])),
  ];
  return candidates.find(canImportBoto3);
}

export const BOTO3_PYTHON: string | undefined = findPython();

/** A prologue that defines `s3`, a path-style us-east-1 client of the gateway, and `out(value)`. */
const PROLOGUE = `
import json, os, sys
import boto3
from botocore.config import Config
s3 = boto3.client('s3', endpoint_url=os.environ['GW_URL'], region_name='us-east-1',
    aws_access_key_id=os.environ['GW_ACCESS'], aws_secret_access_key=os.environ['GW_SECRET'],
    config=Config(s3={'addressing_style': 'path'}, retries={'max_attempts': 1}))
def out(value):
    json.dump(value, sys.stdout, default=str)
`;

/** Runs `program` (after the prologue) and answers what it passed to out(). */
export function boto3Run(
  url: string,
  credentials: { readonly access: string; readonly secret: string },
  program: string,
): Promise<unknown> {
  const python = BOTO3_PYTHON;
  if (python === undefined) return Promise.reject(new Error('no python3 with boto3'));
  const env = {
    PATH: process.env.PATH ?? '',
    GW_URL: url,
    GW_ACCESS: credentials.access,
    GW_SECRET: credentials.secret,
  };
  return new Promise((resolve, reject) => {
    execFile(python, ['-c', `${PROLOGUE}\n${program}`], { env, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`boto3 program failed: ${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout) as unknown);
    });
  });
}
