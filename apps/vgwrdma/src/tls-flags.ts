// The HTTPS listener's flags: versitygw's --cert / --key (same environment variables). Given
// together they turn the S3 port into HTTPS (TLS 1.2+); one without the other is a usage error.
// Spread into the global options (flags.ts).

import { option } from '@vgwrdma/cli-options';
import { z } from 'zod';

const file = z.string().min(1, 'must be a file path');

export const TLS_OPTIONS = {
  cert: option(file, {
    env: ['VGW_CERT'],
    arg: 'FILE',
    help: 'TLS certificate chain (PEM); with --key the gateway serves HTTPS (TLS 1.2+); re-read on SIGHUP',
  }).optional(),
  key: option(file, {
    env: ['VGW_KEY'],
    arg: 'FILE',
    help: 'TLS private key (PEM) of --cert; re-read on SIGHUP',
  }).optional(),
};
