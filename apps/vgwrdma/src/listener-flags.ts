// The listener flags beyond --port: versitygw's --admin-port (the admin API on a listener of its
// own, optionally HTTPS with --admin-cert / --admin-cert-key; the S3 listener then no longer
// serves admin operations) and --socket-perm (the mode of a file-backed unix socket given to
// --port or --admin-port as /path/to/socket, unix:/path or @abstract-name). Same names,
// aliases and environment variables as versitygw. Spread into the global options (flags.ts).

import { octalMode, option } from '@vgwrdma/cli-options';
import { z } from 'zod';
import { listenAddress } from './listen-address.js';

const file = z.string().min(1, 'must be a file path');

export const LISTENER_OPTIONS = {
  'admin-port': option(listenAddress, {
    aliases: ['ap'],
    env: ['VGW_ADMIN_PORT'],
    arg: 'ADDR',
    help: 'serve the admin API on its own listener (<ip>:<port>, :<port> or a unix socket); the S3 port then refuses admin operations',
  }).optional(),
  'admin-cert': option(file, {
    env: ['VGW_ADMIN_CERT'],
    arg: 'FILE',
    help: 'TLS certificate chain (PEM) of the admin listener; with --admin-cert-key it serves HTTPS (TLS 1.2+)',
  }).optional(),
  'admin-cert-key': option(file, {
    env: ['VGW_ADMIN_CERT_KEY'],
    arg: 'FILE',
    help: 'TLS private key (PEM) of --admin-cert',
  }).optional(),
  'socket-perm': option(octalMode, {
    env: ['VGW_SOCKET_PERM'],
    arg: 'MODE',
    help: "permissions of file-backed unix sockets (octal, e.g. 0660); ignored for TCP and abstract ('@name') sockets",
  }).optional(),
};
