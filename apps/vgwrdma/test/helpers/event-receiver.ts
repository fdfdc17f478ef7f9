// A webhook receiver on loopback for the event-notification tests: records every POST body (the
// attempts, failed ones included), can be told to answer 500 to the next N posts, and resolves
// waits when a record matching a predicate has been accepted.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EventRecordJson {
  eventVersion: string;
  eventSource: string;
  awsRegion: string;
  eventTime: string;
  eventName: string;
  userIdentity: { principalId: string };
  requestParameters: { sourceIPAddress: string };
  responseElements: Record<string, string>;
  s3: {
    s3SchemaVersion: string;
    configurationId: string;
    bucket: { name: string; ownerIdentity: { principalId: string }; arn: string };
    object: { key: string; size?: number; eTag?: string; versionId?: string; sequencer: string };
  };
}

export interface EventReceiver {
  readonly url: string;
  /** Records of the posts answered 2xx, in arrival order. */
  readonly accepted: EventRecordJson[];
  /** Every post body as received (including those answered 500). */
  readonly attempts: string[];
  /** The headers of each post, in the order of `attempts`. */
  readonly attemptHeaders: IncomingHttpHeaders[];
  /** Answer the next `n` posts with 500. */
  failNext(n: number): void;
  waitFor(pred: (r: EventRecordJson) => boolean, what: string, timeoutMs?: number): Promise<EventRecordJson>;
  close(): Promise<void>;
}

/** A receiver on 127.0.0.1:`port` (a free one when 0). */
export async function startEventReceiver(port = 0): Promise<EventReceiver> {
  const accepted: EventRecordJson[] = [];
  const attempts: string[] = [];
  const attemptHeaders: IncomingHttpHeaders[] = [];
  const waiters = new Set<() => void>();
  let failing = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      attempts.push(body);
      attemptHeaders.push(req.headers);
      if (failing > 0) {
        failing--;
        res.writeHead(500).end('try again');
        return;
      }
      const doc = JSON.parse(body) as { Records: EventRecordJson[] };
      accepted.push(...doc.Records);
      res.writeHead(200).end();
      for (const w of waiters) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/events`,
    accepted,
    attempts,
    attemptHeaders,
    failNext: (n) => {
      failing = n;
    },
    waitFor: (pred, what, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hit = accepted.find(pred);
          if (!hit) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hit);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no event ${what} within ${timeoutMs} ms; got ${JSON.stringify(accepted.map((r) => [r.eventName, r.s3.object.key]))}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A server that accepts connections and never answers: a receiver that hangs. */
export async function startSilentReceiver(): Promise<{
  url: string;
  requests: () => number;
  close(): Promise<void>;
}> {
  let requests = 0;
  const server = createServer(() => {
    requests++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/events`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
