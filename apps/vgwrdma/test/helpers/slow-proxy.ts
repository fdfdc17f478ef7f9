// A TCP proxy between the gateway and a client's softnic agent that turns the agent into a slow
// one: on each connection, the first `fastBytes` bytes towards the gateway (handshake, the start
// of the data) pass at once, every later byte one at a time, `intervalMs` apart — each well within
// the gateway's socket timeout, so only a whole-transfer deadline (or close()) ends such a
// transfer. It never stops on its own.
import { connect, createServer, type Server, type Socket } from 'node:net';
import { formatRdmaToken, parseRdmaToken } from '@vgwrdma/rdma-protocol';

export interface SlowProxy {
  /** `token` rewritten to reach the agent through this proxy. */
  route(token: string): string;
  /** Whether the slow phase has begun on some connection (its fast bytes have passed). */
  trickling(): boolean;
  /** Connections in their slow phase now (fast bytes passed, not closed). */
  slowConnections(): number;
  /** Connections the gateway closed while bytes were still held back for it. */
  droppedByGateway(): number;
  close(): Promise<void>;
}

export async function startSlowProxy(
  agentPort: number,
  fastBytes: number,
  intervalMs: number,
): Promise<SlowProxy> {
  let dropped = 0;
  let slow = 0;
  let everSlow = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((down) => {
    const up = connect(agentPort, '127.0.0.1');
    const held: number[] = [];
    let passed = 0;
    let isSlow = false;
    for (const s of [up, down]) {
      sockets.add(s);
      s.on('error', () => {});
    }
    const timer = setInterval(() => {
      const b = held.shift();
      if (b !== undefined && !down.destroyed) down.write(Buffer.of(b));
    }, intervalMs);
    down.on('data', (d) => up.write(d));
    up.on('data', (d: Buffer) => {
      const fast = Math.max(0, Math.min(d.length, fastBytes - passed));
      passed += fast;
      if (fast > 0) down.write(d.subarray(0, fast));
      for (const b of d.subarray(fast)) held.push(b);
      if (!isSlow && passed >= fastBytes && !down.destroyed) {
        isSlow = true;
        everSlow = true;
        slow++;
      }
    });
    down.on('close', () => {
      if (held.length > 0) dropped++;
      if (isSlow) slow--;
      clearInterval(timer);
      up.destroy();
    });
    up.on('close', () => {
      // the agent may finish sending long before the trickle does: keep trickling what is held
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    route: (token) => formatRdmaToken({ ...parseRdmaToken(token), dctn: port }),
    trickling: () => everSlow,
    slowConnections: () => slow,
    droppedByGateway: () => dropped,
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
