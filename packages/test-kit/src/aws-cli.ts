// Runs the AWS CLI against a gateway. Debian's /usr/bin/aws (v2) is preferred over whatever `aws`
// comes first on PATH (a pip-installed v1 may). Each runner gets its own config file forcing
// path-style addressing, and an environment with only the credentials it is given.
import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findAws(): string | undefined {
  if (executable('/usr/bin/aws')) return '/usr/bin/aws';
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && executable(join(dir, 'aws'))) return join(dir, 'aws');
  }
  return undefined;
}

export const AWS_BIN: string | undefined = findAws();

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `aws <args>`; `stdin`, when given, is written to its standard input (`aws s3 cp - ...`). */
export type AwsRunner = (args: readonly string[], stdin?: Uint8Array) => Promise<CliResult>;

export interface AwsOptions {
  readonly endpoint: string;
  readonly access: string;
  readonly secret: string;
  /** Directory for the config file. */
  readonly workDir: string;
}

export async function awsCli(options: AwsOptions): Promise<AwsRunner> {
  if (AWS_BIN === undefined) throw new Error('no aws binary found');
  const bin = AWS_BIN;
  const config = join(options.workDir, 'aws-config');
  await writeFile(config, '[default]\nregion = us-east-1\ns3 =\n    addressing_style = path\n');
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.workDir,
    AWS_ACCESS_KEY_ID: options.access,
    AWS_SECRET_ACCESS_KEY: options.secret,
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_CONFIG_FILE: config,
    AWS_SHARED_CREDENTIALS_FILE: join(options.workDir, 'no-credentials'),
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_PAGER: '',
  };
  return (args, stdin) =>
    new Promise((resolve) => {
      const child = execFile(
        bin,
        ['--endpoint-url', options.endpoint, ...args],
        { env, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
          resolve({ code, stdout, stderr });
        },
      );
      child.stdin?.end(stdin);
    });
}

/** `aws <args>`'s standard output; throws with the command and its stderr when it exits non-zero. */
export async function awsOk(aws: AwsRunner, args: readonly string[]): Promise<string> {
  const result = await aws(args);
  if (result.code !== 0) throw new Error(`aws ${args.join(' ')} exited ${result.code}:\n${result.stderr}`);
  return result.stdout;
}
