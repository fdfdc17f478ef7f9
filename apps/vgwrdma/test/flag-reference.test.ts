// Every flag `vgwrdma --help` (and `posix/s3/azure --help`) prints is in the flag tables of
// docs/configuration.md (the README's flag reference): the tables are where users look, so a new flag without a row fails here (`--versioning-dir`
// was once missing). Only the help flags themselves and --version are left out.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AZURE_FLAGS } from '../src/azure-command.js';
import { GLOBAL_FLAGS, POSIX_FLAGS } from '../src/flags.js';
import { S3_FLAGS } from '../src/s3-command.js';

const FLAG_REFERENCE = fileURLToPath(new URL('../../../docs/configuration.md', import.meta.url));

/** The `--name` tokens in the first column of the flag reference's table rows. */
function documented(): Set<string> {
  const names = new Set<string>();
  for (const line of readFileSync(FLAG_REFERENCE, 'utf8').split('\n')) {
    if (!line.startsWith('| ')) continue;
    const first = line.slice(2, line.indexOf(' |', 2));
    for (const [, name] of first.matchAll(/--([a-z0-9][a-z0-9-]*)/g)) names.add(name as string);
  }
  return names;
}

const LEFT_OUT = new Set(['help', 'version']);

describe('the flag tables of docs/configuration.md', () => {
  const rows = documented();
  for (const [command, flags] of [
    ['vgwrdma', GLOBAL_FLAGS],
    ['vgwrdma posix', POSIX_FLAGS],
    ['vgwrdma s3', S3_FLAGS],
    ['vgwrdma azure', AZURE_FLAGS],
  ] as const) {
    it(`list every flag of ${command} --help`, () => {
      const missing = (flags as readonly { name: string }[])
        .map((f) => f.name)
        .filter((name) => !LEFT_OUT.has(name) && !rows.has(name));
      expect(missing, `flags without a row in docs/configuration.md: ${missing.join(', ')}`).toEqual([]);
    });
  }
});
