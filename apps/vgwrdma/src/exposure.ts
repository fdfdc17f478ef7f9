// The startup warning for a gateway that other hosts can reach while its root secret is one anyone
// can know (published in this repository's README or in AWS's documentation) or guess. SigV4
// sends no secret, but one captured request (plain HTTP) lets an attacker test guesses offline at
// millions per second, so a short secret is nearly as weak as a published one. 16 characters is
// the floor: AWS's own secrets are 40, and below 16 a secret is almost always typed by a person.
import { isIP } from 'node:net';
import { DEFAULT_CREDENTIALS } from './defaults.js';

export const MIN_SECRET_LENGTH = 16;

/** Secrets printed in documentation: the `npm start` default and AWS's example keys. */
export const WELL_KNOWN_SECRETS: ReadonlySet<string> = new Set([
  DEFAULT_CREDENTIALS.secret,
  's3cr3t', // packages/gateway/README.md's example
  'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', // AWS documentation
  'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
]);

/** True when `host` (an address the server is bound to) is reachable only from this host. */
export function isLoopbackAddress(host: string): boolean {
  const address = host.toLowerCase().replace(/^::ffff:(?=\d+\.)/, '');
  if (isIP(address) === 4) return address.startsWith('127.');
  return address === '::1' || address === 'localhost';
}

/** Why `secret` is weak, or undefined when it is not. */
function secretWeakness(secret: string): string | undefined {
  if (WELL_KNOWN_SECRETS.has(secret)) return 'a published default secret';
  if (secret.length < MIN_SECRET_LENGTH) return `a secret shorter than ${MIN_SECRET_LENGTH} characters`;
  return undefined;
}

/** The one-line warning for a gateway bound to `host` with `secret`, or undefined when safe. */
export function exposureWarning(host: string, secret: string): string | undefined {
  if (isLoopbackAddress(host)) return undefined;
  const weakness = secretWeakness(secret);
  if (weakness === undefined) return undefined;
  return (
    `vgwrdma: WARNING: listening on ${host}, beyond this host, with ${weakness}: anyone who can ` +
    'reach this port can use the root account; set a strong secret (--secret or ' +
    `ROOT_SECRET_ACCESS_KEY, at least ${MIN_SECRET_LENGTH} random characters) or listen on ` +
    'loopback only (--port 127.0.0.1:PORT or VGW_PORT).\n'
  );
}
