// The --help texts, generated from the flag tables so they can never drift from what is parsed.
import { type FlagSpec, GLOBAL_FLAGS, POSIX_FLAGS } from './flags.js';

export function flagLines(flags: readonly FlagSpec[]): string {
  const rows = flags.map((flag) => {
    const longs = [flag.name, ...(flag.aliases ?? [])].map((name) => `--${name}`).join(', ');
    const names = `${flag.short ? `-${flag.short}, ` : '    '}${longs}${flag.arg ? ` ${flag.arg}` : ''}`;
    const extras = [
      flag.default !== undefined && flag.default !== false ? `default ${String(flag.default)}` : '',
      flag.env.length > 0 ? `env ${flag.env.join(', ')}` : '',
    ].filter(Boolean);
    return { names, help: extras.length > 0 ? `${flag.help} [${extras.join('; ')}]` : flag.help };
  });
  const width = Math.max(...rows.map((row) => row.names.length)) + 2;
  return rows.map((row) => `  ${row.names.padEnd(width)}${row.help}`).join('\n');
}

export function globalUsage(): string {
  return `vgwrdma - S3 gateway that can move object data by RDMA (cuObject DC v1) or softnic

Usage:
  vgwrdma [global flags] posix [posix flags] <root>
  vgwrdma [global flags] s3 [s3 flags]
  vgwrdma [global flags] azure [azure flags]
  vgwrdma admin [admin flags] <command> [command flags]
  vgwrdma posix --help
  vgwrdma s3 --help
  vgwrdma azure --help
  vgwrdma admin --help

Backends:
  posix    objects are files under <root>, metadata in extended attributes
  s3       proxy to an existing S3 store (AWS S3, Ceph RGW, MinIO, another gateway)
  azure    Azure Blob Storage: buckets are containers, objects block blobs

Admin:
  admin    manage the accounts and bucket owners of a running gateway (create-user, list-users, ...)

Global flags:
${flagLines(GLOBAL_FLAGS)}
`;
}

export function posixUsage(): string {
  return `vgwrdma posix - posix filesystem storage backend

Usage:
  vgwrdma [global flags] posix [posix flags] <root>

Every subdirectory of <root> is a bucket; the object key "a/b/c" of bucket "b1" is the file
<root>/b1/a/b/c. <root> must exist, and must support user extended attributes unless
--sidecar or --nometa is given.

Posix flags:
${flagLines(POSIX_FLAGS)}
`;
}
