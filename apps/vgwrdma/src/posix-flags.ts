// The posix backend's flags beyond the metadata and versioning ones: versitygw's --file-perms
// (mode of new object files), --concurrency (backend operations in flight) and --chuid / --chgid
// (new files and directories owned by the requesting account). Same names, environment
// variables and defaults. Spread into POSIX_FLAGS (flags.ts).

import { option } from '@vgwrdma/cli-options';
import { z } from 'zod';
import { octalMode } from './octal-mode.js';

const positive = z
  .string()
  .regex(/^\d{1,7}$/, 'must be a whole number of at least 1')
  .transform(Number)
  .refine((n) => n >= 1, 'must be at least 1');

export const POSIX_EXTRA_OPTIONS = {
  bucketlinks: option(z.boolean(), {
    env: ['VGW_BUCKET_LINKS'],
    default: false,
    help: 'allow symlinked directories at bucket level to be treated as buckets (keys still never leave the link target)',
  }),
  chuid: option(z.boolean(), {
    env: ['VGW_CHOWN_UID'],
    default: false,
    help: "chown newly created files and directories to the client account's userID (users.json; needs root or CAP_CHOWN)",
  }),
  chgid: option(z.boolean(), {
    env: ['VGW_CHOWN_GID'],
    default: false,
    help: "chown newly created files and directories to the client account's groupID (users.json; needs root or CAP_CHOWN)",
  }),
  'file-perms': option(octalMode, {
    env: ['VGW_FILE_PERMS'],
    default: '0644',
    arg: 'MODE',
    help: 'default file permissions for new objects (octal; set exactly, whatever the umask)',
  }),
  concurrency: option(positive, {
    env: ['VGW_POSIX_CONCURRENCY'],
    default: '5000',
    arg: 'N',
    help: 'maximum concurrent backend operations; more wait their turn',
  }),
};
