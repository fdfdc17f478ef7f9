// Measures the two ways a hono handler on @hono/node-server can send a large GET body: writing
// the Node stream to c.env.outgoing (RESPONSE_ALREADY_SENT) or returning a web ReadableStream.
// Run: npx tsx scripts/get-streaming-compare.ts (figures in README, "GET streaming").
import { get } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { HttpBindings } from '@hono/node-server';
import { serve } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';

const SIZE = 256 * 1024 * 1024;
const CHUNK = Buffer.alloc(1024 * 1024, 7);
function source(): Readable {
  let sent = 0;
  return new Readable({
    highWaterMark: 1024 * 1024,
    read() {
      if (sent >= SIZE) return void this.push(null);
      sent += CHUNK.length;
      this.push(Buffer.from(CHUNK)); // a fresh buffer per chunk, as a file read would give
    },
  });
}
const app = new Hono<{ Bindings: HttpBindings }>();
app.get('/direct', async (c) => {
  c.env.outgoing.writeHead(200, { 'content-length': String(SIZE) });
  await pipeline(source(), c.env.outgoing);
  return RESPONSE_ALREADY_SENT;
});
app.get(
  '/web',
  () =>
    new Response(Readable.toWeb(source()) as ReadableStream, { headers: { 'content-length': String(SIZE) } }),
);

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false });
await new Promise((r) => server.once('listening', r));
const port = (server.address() as { port: number }).port;
function once(path: string): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let n = 0;
      res.on('data', (c: Buffer) => (n += c.length));
      res.on('end', () => {
        if (n !== SIZE) reject(new Error(`short ${n}`));
        resolve(SIZE / ((performance.now() - t0) / 1000) / 1e9);
      });
    }).on('error', reject);
  });
}
for (const path of ['/direct', '/web']) await once(path);
const results: Record<string, number[]> = { '/direct': [], '/web': [] };
for (let i = 0; i < 6; i++) for (const path of ['/direct', '/web']) results[path]?.push(await once(path));
for (const [k, v] of Object.entries(results)) {
  v.sort((a, b) => a - b);
  console.log(
    k,
    'GB/s median',
    v[Math.floor(v.length / 2)]?.toFixed(2),
    'all',
    v.map((x) => x.toFixed(2)).join(' '),
  );
}
server.close();
