// A fake softnic agent that accepts connections and never answers: a gateway transfer aimed at
// it holds its pool buffer and channel until softnic's handshake timeout (3 s) or until
// `release()` cuts the connections. Used to exhaust the pool on purpose.
import { createServer, type Socket } from 'node:net';
import { formatRdmaToken, parseRdmaToken } from '@vgwrdma/rdma-protocol';

export interface StuckAgent {
  /** `token` re-aimed at this agent. */
  route(token: string): string;
  /** Resolves once `n` connections arrived. */
  connected(n: number): Promise<void>;
  release(): void;
  close(): Promise<void>;
}

export async function startStuckAgent(): Promise<StuckAgent> {
  const sockets: Socket[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = createServer((s) => {
    sockets.push(s);
    s.on('error', () => {});
    for (const w of waiters.filter((w) => sockets.length >= w.n)) w.resolve();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    route: (token) => formatRdmaToken({ ...parseRdmaToken(token), dctn: port }),
    connected: (n) =>
      sockets.length >= n ? Promise.resolve() : new Promise((resolve) => waiters.push({ n, resolve })),
    release: () => {
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
