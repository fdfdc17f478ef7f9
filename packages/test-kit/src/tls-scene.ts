// sceneTls: what a TLS gateway test needs, made in one call in the scene's (or test's) folder: a
// throw-away CA with one server certificate for 127.0.0.1 / localhost, the CA certificate as
// clients are given it, the gateway's `--cert`/`--key` flags, and the SDK settings (an https.Agent
// trusting the CA) that a scene's clients take as `sdk`.
import { readFile } from 'node:fs/promises';
import { Agent } from 'node:https';
import type { S3ClientConfig } from '@aws-sdk/client-s3';
import { makeTestCa, type ServerCert, type TestCa } from './tls-certs.js';

export interface SceneTls {
  /** The CA: issue more certificates with it; its caFile is what `--ca-bundle` takes. */
  readonly ca: TestCa;
  /** The server certificate issued to the common name given. */
  readonly cert: ServerCert;
  /** The CA certificate (PEM bytes), for an https.Agent's or tls.connect's `ca`. */
  readonly caPem: Buffer;
  /** `--cert <file> --key <file>` for the certificate. */
  readonly args: string[];
  /** S3 client settings whose HTTPS agent trusts the CA (keep-alive on). */
  readonly sdk: Partial<S3ClientConfig>;
}

/** Makes the CA in `dir` and issues a server certificate to `commonName`. */
export async function sceneTls(dir: string, commonName: string): Promise<SceneTls> {
  const ca = await makeTestCa(dir);
  const cert = await ca.issue(commonName);
  const caPem = await readFile(ca.caFile);
  return {
    ca,
    cert,
    caPem,
    args: ['--cert', cert.certFile, '--key', cert.keyFile],
    sdk: { requestHandler: { httpsAgent: new Agent({ ca: caPem, keepAlive: true }) } },
  };
}
