// The posix backend's operator settings, declared once: each field's type and range with its
// command-line flag, environment variables, default and help text (metadata of
// @vgwrdma/cli-options). Names, variables and defaults follow versitygw's posix command
// (cmd/versitygw/posix.go), so scripts and unit files carry over. vgwrdma derives its `posix`
// level's flags, environment fallback and --help from this schema; the root stays positional.
import { MIN_ETAG_PART_SIZE } from '@vgwrdma/backend-contract';
import { byteSize, nonEmpty, octalMode, option } from '@vgwrdma/cli-options';
import { z } from 'zod';

/** S3's largest part: the 'parts' ETag mode's part size at most. */
const MAX_ETAG_PART_SIZE = 5 * 1024 ** 3;

const positive = z
  .string()
  .regex(/^\d{1,7}$/, 'must be a whole number of at least 1')
  .transform(Number)
  .refine((n) => n >= 1, 'must be at least 1');

export const POSIX_BACKEND_OPTIONS = z.object({
  sidecar: option(nonEmpty, {
    env: ['VGW_META_SIDECAR'],
    arg: 'DIR',
    help: 'store metadata as files under DIR instead of extended attributes',
  }).optional(),
  versioningDir: option(nonEmpty, {
    flag: 'versioning-dir',
    env: ['VGW_VERSIONING_DIR'],
    arg: 'DIR',
    help: 'the directory path to enable bucket versioning (non-current versions are kept there)',
  }).optional(),
  nometa: option(z.boolean(), { env: ['VGW_META_NONE'], default: false, help: 'disable metadata storage' }),
  dirPerms: option(octalMode, {
    flag: 'dir-perms',
    env: ['VGW_DIR_PERMS'],
    default: '0755',
    arg: 'MODE',
    help: 'default directory permissions for new directories (octal)',
  }),
  // The ETag mode (docs/architecture.md, "ETag modes"): `md5`, S3's ETag of a single PUT, or
  // `parts`, which hashes a large body as fixed-size parts at once (a write is not bound by one
  // core's MD5) and gives it S3's multipart-form ETag.
  etagMode: option(z.enum(['md5', 'parts'], { message: "must be 'md5' or 'parts'" }), {
    flag: 'etag-mode',
    env: ['VGW_ETAG_MODE'],
    default: 'md5',
    arg: 'MODE',
    help: "ETag of a single PUT: 'md5' (the whole body's MD5) or 'parts' (parts hashed at once; a body larger than --etag-part-size gets the multipart form '<md5>-<N>'; Content-MD5 still forces the MD5)",
  }),
  etagPartSize: option(byteSize(MIN_ETAG_PART_SIZE, MAX_ETAG_PART_SIZE), {
    flag: 'etag-part-size',
    env: ['VGW_ETAG_PART_SIZE'],
    default: '8MiB',
    arg: 'SIZE',
    help: "part size of the 'parts' ETag mode, 5MiB to 5GiB",
  }),
  bucketLinks: option(z.boolean(), {
    flag: 'bucketlinks',
    env: ['VGW_BUCKET_LINKS'],
    default: false,
    help: 'allow symlinked directories at bucket level to be treated as buckets (keys still never leave the link target)',
  }),
  chownUid: option(z.boolean(), {
    flag: 'chuid',
    env: ['VGW_CHOWN_UID'],
    default: false,
    help: "chown newly created files and directories to the client account's userID (users.json; needs root or CAP_CHOWN)",
  }),
  chownGid: option(z.boolean(), {
    flag: 'chgid',
    env: ['VGW_CHOWN_GID'],
    default: false,
    help: "chown newly created files and directories to the client account's groupID (users.json; needs root or CAP_CHOWN)",
  }),
  filePerms: option(octalMode, {
    flag: 'file-perms',
    env: ['VGW_FILE_PERMS'],
    default: '0644',
    arg: 'MODE',
    help: 'default file permissions for new objects (octal; set exactly, whatever the umask)',
  }),
  // Backend operations in flight at most (limitConcurrency); more wait their turn.
  concurrency: option(positive, {
    env: ['VGW_POSIX_CONCURRENCY'],
    default: '5000',
    arg: 'N',
    help: 'maximum concurrent backend operations; more wait their turn',
  }),
});

/** The settings as validated from flags and the environment. */
export type PosixBackendSettings = z.output<typeof POSIX_BACKEND_OPTIONS>;
