// A TCP listener that only records who connected: aimed at by a token (GID = its address, DCTN =
// its port), it tells whether the gateway dialled the agent a token names. Connections are closed
// at once, so a gateway that did dial fails that transfer quickly.
import { createServer } from 'node:net';
import { formatRdmaToken, ipv4MappedGid, parseRdmaToken } from '@vgwrdma/rdma-protocol';

export interface ConnectionRecorder {
  readonly host: string;
  readonly port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** `token` re-aimed at this listener (its address in the GID, its port in the DCTN). */
  route(token: string): string;
  close(): Promise<void>;
}

export async function startConnectionRecorder(host = '127.0.0.1'): Promise<ConnectionRecorder> {
  let count = 0;
  const server = createServer((s) => {
    count++;
    s.on('error', () => {});
    s.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  const port = (server.address() as { port: number }).port;
  return {
    host,
    port,
    connections: () => count,
    route: (token) => formatRdmaToken({ ...parseRdmaToken(token), gid: ipv4MappedGid(host), dctn: port }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
      }),
  };
}
