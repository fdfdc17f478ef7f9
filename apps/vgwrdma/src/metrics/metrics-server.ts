// The Prometheus listener: its own HTTP server (never the S3 port), answering GET /metrics with
// the registry in the text exposition format and 404 to anything else. No authentication: it binds
// loopback unless --metrics-port names another interface.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import type { ListenAddress } from '../listen-address.js';

export interface MetricsServer {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

export function startMetricsServer(registry: Registry, address: ListenAddress): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res
        .writeHead(404, { 'content-type': 'text/plain' })
        .end('not found: the metrics are at GET /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': registry.contentType });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end(`metrics collection failed: ${error instanceof Error ? error.message : String(error)}\n`);
      },
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => {
      server.off('error', reject);
      const info = server.address() as AddressInfo;
      resolve({
        host: info.address,
        port: info.port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      });
    });
  });
}
