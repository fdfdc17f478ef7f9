// The posix backend's flags beyond the metadata and versioning ones: versitygw's --file-perms
// (mode of new object files) and --concurrency (backend operations in flight). Same names,
// environment variables and defaults. Spread into POSIX_FLAGS (flags.ts).
import { z } from 'zod';
import type { FlagSpec } from './flags.js';
import { octalMode } from './octal-mode.js';

const positive = z
  .string()
  .regex(/^\d{1,7}$/, 'must be a whole number of at least 1')
  .transform(Number)
  .refine((n) => n >= 1, 'must be at least 1');

export const POSIX_EXTRA_FLAGS = [
  {
    name: 'file-perms',
    type: 'string',
    env: ['VGW_FILE_PERMS'],
    schema: octalMode,
    default: '0644',
    arg: 'MODE',
    help: 'default file permissions for new objects (octal; set exactly, whatever the umask)',
  },
  {
    name: 'concurrency',
    type: 'string',
    env: ['VGW_POSIX_CONCURRENCY'],
    schema: positive,
    default: '5000',
    arg: 'N',
    help: 'maximum concurrent backend operations; more wait their turn',
  },
] as const satisfies readonly FlagSpec[];
