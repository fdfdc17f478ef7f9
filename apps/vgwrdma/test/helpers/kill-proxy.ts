// A TCP proxy between the gateway and a client's softnic agent that calls `trigger` (kill the
// client, cut the link) once `afterBytes` bytes went by in one direction: to the gateway (the
// data of an RDMA PUT, which the gateway READs) or to the agent (an RDMA GET's WRITEs).
import { connect, createServer, type Server } from 'node:net';
import { formatRdmaToken, parseRdmaToken } from '@vgwrdma/rdma-protocol';

export interface KillProxy {
  /** Whether the trigger has been called. */
  fired(): boolean;
  /** `token` rewritten to reach the agent through this proxy. */
  route(token: string): string;
  close(): Promise<void>;
}

export async function startKillProxy(
  agentPort: number,
  direction: 'to-gateway' | 'to-agent',
  afterBytes: number,
  trigger: () => void,
): Promise<KillProxy> {
  let seen = 0;
  let fired = false;
  const count = (n: number) => {
    seen += n;
    if (!fired && seen >= afterBytes) {
      fired = true;
      trigger();
    }
  };
  const server: Server = createServer((down) => {
    const up = connect(agentPort, '127.0.0.1');
    for (const s of [up, down]) s.on('error', () => {});
    down.on('data', (d) => {
      up.write(d);
      if (direction === 'to-agent') count(d.length);
    });
    up.on('data', (d) => {
      down.write(d);
      if (direction === 'to-gateway') count(d.length);
    });
    up.on('close', () => down.destroy());
    down.on('close', () => up.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    fired: () => fired,
    route: (token) => formatRdmaToken({ ...parseRdmaToken(token), dctn: port }),
    close: () => new Promise((r) => server.close(() => r())),
  };
}
