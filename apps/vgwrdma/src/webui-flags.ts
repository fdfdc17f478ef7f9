// The web console's flags: --webui (its own listener, serving the console's static files and its
// stats endpoint; off unless given), its TLS pair (--webui-cert / --webui-cert-key; by default the
// gateway's --cert / --key when it has them) and --webui-origin (the origin browsers see when the
// console sits behind a reverse proxy) and --webui-s3-url (where its browsers reach the S3 API
// there). Spread into the global options (flags.ts).

import { option } from '@vgwrdma/cli-options';
import { z } from 'zod';
import { isHttpUrl } from './http-url.js';
import { listenAddress } from './listen-address.js';

const file = z.string().min(1, 'must be a file path');

/** A comma-separated list of origins: scheme://host[:port], no path, no wildcard. */
const origins = z
  .string()
  .transform((value) =>
    value
      .split(',')
      .map((o) => o.trim().replace(/\/+$/, ''))
      .filter((o) => o !== ''),
  )
  .refine(
    (list) => list.length > 0 && list.every((o) => /^https?:\/\/[^\s/,*?]+$/.test(o)),
    'must be one or more comma-separated origins such as https://console.example.com (no path, no wildcard)',
  );

export const WEBUI_OPTIONS = {
  webui: option(listenAddress, {
    env: ['VGW_WEBUI'],
    arg: 'ADDR',
    help: "serve the web console on its own listener (<ip>:<port>, :<port> or a unix socket); the S3 and admin ports then answer its origin's CORS requests",
  }).optional(),
  'webui-cert': option(file, {
    env: ['VGW_WEBUI_CERT'],
    arg: 'FILE',
    help: "TLS certificate chain (PEM) of the web console; with --webui-cert-key it serves HTTPS (default: the gateway's --cert / --key when given)",
  }).optional(),
  'webui-cert-key': option(file, {
    env: ['VGW_WEBUI_CERT_KEY'],
    arg: 'FILE',
    help: 'TLS private key (PEM) of --webui-cert',
  }).optional(),
  'webui-origin': option(origins, {
    env: ['VGW_WEBUI_ORIGIN'],
    arg: 'ORIGINS',
    help: "the console's origin(s) as browsers see them behind a reverse proxy (comma-separated, e.g. https://console.example.com); added to the listener's own",
  }).optional(),
  'webui-s3-url': option(
    z
      .string()
      .refine(
        (v) => isHttpUrl(v) && /^https?:\/\/[^/]+\/?$/.test(v),
        'must be an http:// or https:// URL without a path, e.g. https://s3.example.com',
      )
      .transform((v) => v.replace(/\/$/, '')),
    {
      env: ['VGW_WEBUI_S3_URL'],
      arg: 'URL',
      help: "where the console's browsers reach the S3 API (behind a reverse proxy); default the S3 listener's address",
    },
  ).optional(),
};
