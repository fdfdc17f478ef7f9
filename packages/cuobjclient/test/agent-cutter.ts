// A fault for the managed-transfer tests: the softnic agent's socket closed in the middle of one
// part. A TCP relay on 127.0.0.1 forwards to the client's own agent and, for the first
// connection, destroys every connection once `cutAfter` bytes went from the agent to the gateway
// (a PUT's data: the gateway reads it), and refuses any later one. A middleware on the test's S3Client points the token of the
// first UploadPart of part `part` at the relay instead of the agent (the token's DCTN field is
// the agent's TCP port with softnic; docs/protocol.md "The token"), before SigV4 signs it, so
// the gateway really connects there and really loses the connection mid-transfer.

import { connect, createServer, type Server, type Socket } from 'node:net';
import type { S3Client } from '@aws-sdk/client-s3';

const TOKEN_HEADER = 'x-amz-rdma-token';

export interface AgentCutter {
  /** How many connections the relay cut. */
  readonly cuts: () => number;
  close(): Promise<void>;
}

/** Tokens' 7 colon-separated fields; #4 (0-based) is the DCTN = the softnic agent's port. */
function withPort(token: string, port: number): { token: string; agentPort: number } {
  const f = token.split(':');
  const agentPort = Number.parseInt(f[4] ?? '', 16);
  f[4] = port.toString(16).padStart(6, '0');
  return { token: f.join(':'), agentPort };
}

export async function cutAgentOnce(s3: S3Client, part: number, cutAfter: number): Promise<AgentCutter> {
  let agentPort = 0;
  let cuts = 0;
  let sent = 0;
  let tripped = false;
  const sockets = new Set<Socket>();
  const trip = () => {
    if (!tripped) cuts++;
    tripped = true;
    for (const s of sockets) s.destroy();
  };
  const relay: Server = createServer((gateway) => {
    gateway.on('error', () => undefined);
    if (tripped) return void gateway.destroy(); // the agent stays unreachable through the relay
    const agent = connect(agentPort, '127.0.0.1');
    for (const s of [gateway, agent]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    agent.on('data', (chunk: Buffer) => {
      if (sent + chunk.length > cutAfter) return trip();
      sent += chunk.length;
      gateway.write(chunk);
    });
    gateway.on('data', (chunk: Buffer) => agent.write(chunk));
    gateway.on('close', () => agent.destroy());
    agent.on('close', () => gateway.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  const relayPort = (relay.address() as { port: number }).port;
  let redirected = false;
  type Args = { input: unknown; request: unknown };
  const middleware =
    (next: (a: Args) => Promise<unknown>, context: { commandName?: string }) => async (args: Args) => {
      const input = args.input as { PartNumber?: number };
      const headers = (args.request as { headers?: Record<string, string> }).headers;
      const token = headers?.[TOKEN_HEADER];
      if (!redirected && context.commandName === 'UploadPartCommand' && input.PartNumber === part && token) {
        redirected = true;
        const r = withPort(token, relayPort);
        agentPort = r.agentPort;
        (headers as Record<string, string>)[TOKEN_HEADER] = r.token;
      }
      return next(args);
    };
  s3.middlewareStack.addRelativeTo(
    middleware as unknown as Parameters<S3Client['middlewareStack']['addRelativeTo']>[0],
    {
      relation: 'before',
      toMiddleware: 'httpSigningMiddleware',
      name: 'cutAgentOnce',
    },
  );
  return {
    cuts: () => cuts,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}
