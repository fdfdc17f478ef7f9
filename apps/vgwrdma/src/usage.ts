// The --help texts, generated from the option schemas so they can never drift from what is parsed.
import { helpLines } from '@vgwrdma/cli-options';
import { GLOBAL_FLAGS, POSIX_FLAGS } from './flags.js';

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
${helpLines(GLOBAL_FLAGS)}
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
${helpLines(POSIX_FLAGS)}
`;
}
