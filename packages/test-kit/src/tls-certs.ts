// A throw-away certificate authority for TLS tests, made with the openssl command: a CA, and server
// certificates it signs for 127.0.0.1 / localhost (each with its own serial and common name, so a
// test can tell two of them apart on the wire). Everything lives in the directory given.
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ServerCert {
  readonly certFile: string;
  readonly keyFile: string;
  /** The common name it was issued to. */
  readonly commonName: string;
}

export interface TestCa {
  /** The CA certificate (PEM): what clients trust (`--ca-bundle`, an https.Agent's `ca`). */
  readonly caFile: string;
  /** Issues a server certificate for 127.0.0.1 and localhost, signed by the CA. */
  issue(commonName: string): Promise<ServerCert>;
}

async function openssl(args: readonly string[], cwd: string): Promise<void> {
  await run('openssl', [...args], { cwd });
}

export async function makeTestCa(dir: string): Promise<TestCa> {
  const caFile = join(dir, 'ca.pem');
  const caKey = join(dir, 'ca.key');
  await openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      caKey,
      '-out',
      caFile,
      '-days',
      '2',
      '-subj',
      '/CN=vgwrdma test CA',
    ],
    dir,
  );
  let serial = 0;
  return {
    caFile,
    issue: async (commonName) => {
      serial++;
      const base = join(dir, `server-${serial}`);
      const ext = `${base}.ext`;
      await writeFile(ext, 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
      await openssl(
        [
          'req',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-keyout',
          `${base}.key`,
          '-out',
          `${base}.csr`,
          '-subj',
          `/CN=${commonName}`,
        ],
        dir,
      );
      await openssl(
        [
          'x509',
          '-req',
          '-in',
          `${base}.csr`,
          '-CA',
          caFile,
          '-CAkey',
          caKey,
          '-set_serial',
          String(1000 + serial),
          '-out',
          `${base}.pem`,
          '-days',
          '2',
          '-extfile',
          ext,
        ],
        dir,
      );
      return { certFile: `${base}.pem`, keyFile: `${base}.key`, commonName };
    },
  };
}
