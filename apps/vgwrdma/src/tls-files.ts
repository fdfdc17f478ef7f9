// Reads and checks the --cert / --key pair: at start (a bad pair is one StartupError naming the
// flag and file, exit 1) and again on SIGHUP (a bad pair is logged and the running one kept).
// Node's createSecureContext is the check, so what passes here is what the listener accepts.

import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createSecureContext } from 'node:tls';
import { StartupError } from '@vgwrdma/errors';
import type { TlsCredentials } from '@vgwrdma/gateway';

/** Where the pair lives (absolute paths). */
export interface TlsFiles {
  readonly certFile: string;
  readonly keyFile: string;
}

/** The pair, checked, plus what an operator wants to see in the log. */
export interface LoadedTls extends TlsCredentials {
  /** The leaf certificate's subject and expiry. */
  readonly subject: string;
  readonly validTo: string;
}

async function read(flag: string, path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(error);
    throw new StartupError(`cannot read ${flag} ${path}: ${why}`, { cause: error });
  }
}

function check(what: () => unknown, message: string): void {
  try {
    what();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new StartupError(`${message} (${why})`, { cause: error });
  }
}

/** Reads both files and proves they make a TLS context; throws StartupError otherwise. */
export async function loadTlsFiles({ certFile, keyFile }: TlsFiles): Promise<LoadedTls> {
  const [cert, key] = await Promise.all([read('--cert', certFile), read('--key', keyFile)]);
  let leaf: X509Certificate | undefined;
  check(() => {
    leaf = new X509Certificate(cert);
  }, `--cert ${certFile} is not a PEM certificate`);
  check(() => createSecureContext({ key }), `--key ${keyFile} is not a PEM private key`);
  check(
    () => createSecureContext({ cert, key }),
    `--key ${keyFile} is not the private key of --cert ${certFile}`,
  );
  return { cert, key, subject: leaf?.subject.replaceAll('\n', ', ') ?? '', validTo: leaf?.validTo ?? '' };
}
