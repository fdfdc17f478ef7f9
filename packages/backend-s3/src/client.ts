// The upstream connection: one keep-alive agent shared by two S3Clients — one that retries
// (everything whose request can be replayed) and one that never does (streamed uploads: a
// consumed body cannot be sent twice). Checksums are computed only when asked for, so each
// operation decides what travels upstream.
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_MAX_SOCKETS,
  DEFAULT_REGION,
  type S3BackendOptions,
} from './options.js';

export interface UpstreamClients {
  /** Retries transient failures; for every request without a streamed body. */
  readonly client: S3Client;
  /** One attempt only; for PutObject and UploadPart, whose bodies are streams. */
  readonly streamClient: S3Client;
  /** Closes the pooled sockets. */
  destroy(): void;
}

/**
 * The SDK warns on the console when a streamed request fails; such failures are answered as
 * S3Errors here (and logged by the gateway), so its own logger stays quiet.
 */
const QUIET_LOGGER = { debug() {}, info() {}, warn() {}, error() {} };

/** Signing that leaves the request as it is: anonymous access. */
const ANONYMOUS_SIGNER = { sign: async <T>(request: T): Promise<T> => request };

export function createUpstreamClients(options: S3BackendOptions): UpstreamClients {
  const maxSockets = options.maxSockets ?? DEFAULT_MAX_SOCKETS;
  const httpAgent = new HttpAgent({ keepAlive: true, maxSockets });
  const httpsAgent = new HttpsAgent({
    keepAlive: true,
    maxSockets,
    rejectUnauthorized: options.sslSkipVerify !== true,
  });
  const requestHandler = new NodeHttpHandler({ httpAgent, httpsAgent });

  const base: S3ClientConfig = {
    region: options.region ?? DEFAULT_REGION,
    forcePathStyle: options.usePathStyle === true,
    requestHandler,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(options.endpoint === undefined ? {} : { endpoint: options.endpoint }),
    ...credentialsConfig(options),
  };
  const client = new S3Client({ ...base, maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS });
  const streamClient = new S3Client({ ...base, maxAttempts: 1, logger: QUIET_LOGGER });
  return {
    client,
    streamClient,
    destroy: () => {
      // The handler is shared: destroying it once closes both clients' sockets.
      requestHandler.destroy();
    },
  };
}

function credentialsConfig(options: S3BackendOptions): Partial<S3ClientConfig> {
  if (options.anonymous === true) {
    return { credentials: { accessKeyId: '', secretAccessKey: '' }, signer: ANONYMOUS_SIGNER };
  }
  if (options.access !== undefined && options.secret !== undefined) {
    return { credentials: { accessKeyId: options.access, secretAccessKey: options.secret } };
  }
  return {}; // the SDK's default chain: environment, shared files, SSO, instance metadata
}
