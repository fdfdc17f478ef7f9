// One load-generator process (bench/lib/load/load.mjs forks several): PUTs or GETs objects of one
// size with `concurrency` requests in flight, through one of two clients (CLIENTS below):
//   sdk   — @aws-sdk/client-s3 as an application uses it (payload signed over http, default checksums)
//   light — node:http with a keep-alive agent on URLs presigned before the timed window
//           (UNSIGNED-PAYLOAD), so the client spends almost nothing per request
// Protocol on the IPC channel: parent sends {setup}, worker answers {ready}; parent sends {go},
// worker answers {done, ops, bytes, failures, cpuMs}; parent sends {cleanup}, worker answers {clean}.
// Every operation is verified: a PUT's ETag is the payload's MD5, a GET's body equals the payload.

import { createHash, randomFillSync } from 'node:crypto';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { Sha256 } from './sigv4-hash.mjs';

// the SDK and the signer are test-kit's dependencies (the bench has no package of its own)
const requireSdk = createRequire(new URL('../../../packages/test-kit/package.json', import.meta.url));
const loadSdk = () => import(requireSdk.resolve('@aws-sdk/client-s3'));
const loadSigner = () => import(requireSdk.resolve('@smithy/signature-v4'));

/**
 * A request that moves no byte for this long fails its row instead of hanging the run (a peer
 * whose store stopped answering, such as a full memstore OSD, otherwise never ends the phase).
 */
const IDLE_MS = 120_000;

const selfCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** client kind → (options) → { put(key, body) → etag, get(key) → Buffer, ensureBucket(), remove(key) } */
const CLIENTS = {
  async sdk(o) {
    const s3 = await loadSdk();
    const client = new s3.S3Client({
      endpoint: o.endpoint,
      region: o.region,
      forcePathStyle: true,
      credentials: { accessKeyId: o.access, secretAccessKey: o.secret },
      maxAttempts: 1,
      requestHandler: {
        httpAgent: new Agent({ keepAlive: true, maxSockets: o.concurrency }),
        socketTimeout: IDLE_MS,
      },
    });
    return {
      prepare: async () => {},
      ensureBucket: () => ensureBucket(client, s3, o.bucket),
      put: async (key, body) =>
        (await client.send(new s3.PutObjectCommand({ Bucket: o.bucket, Key: key, Body: body }))).ETag,
      get: async (key) => {
        const r = await client.send(new s3.GetObjectCommand({ Bucket: o.bucket, Key: key }));
        return Buffer.from(await r.Body.transformToByteArray());
      },
      remove: (key) => client.send(new s3.DeleteObjectCommand({ Bucket: o.bucket, Key: key })),
    };
  },
  async light(o) {
    const sdk = await CLIENTS.sdk(o); // bucket setup and cleanup only, outside the timed window
    const { SignatureV4 } = await loadSigner();
    const signer = new SignatureV4({
      credentials: { accessKeyId: o.access, secretAccessKey: o.secret },
      region: o.region,
      service: 's3',
      sha256: Sha256,
      uriEscapePath: false,
      applyChecksum: false,
    });
    const url = new URL(o.endpoint);
    const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
    const urls = new Map();
    const presign = async (method, key) => {
      const path = `/${o.bucket}/${encodeURIComponent(key)}`;
      const signed = await signer.presign(
        {
          method,
          protocol: 'http:',
          hostname: url.hostname,
          port: Number(url.port),
          path,
          query: {},
          headers: { host: url.host, 'x-amz-content-sha256': 'UNSIGNED-PAYLOAD' },
        },
        { expiresIn: 3600 },
      );
      return `${path}?${new URLSearchParams(signed.query).toString()}`;
    };
    const send = (method, key, body) =>
      new Promise((resolve, reject) => {
        const req = request(
          {
            agent,
            host: url.hostname,
            port: url.port,
            method,
            path: urls.get(`${method} ${key}`),
            headers: body ? { 'content-length': body.length } : {},
          },
          (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () =>
              res.statusCode === 200
                ? resolve({ headers: res.headers, body: Buffer.concat(chunks) })
                : reject(
                    new Error(
                      `${method} ${key}: HTTP ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 200)}`,
                    ),
                  ),
            );
            res.on('error', reject);
          },
        );
        req.setTimeout(IDLE_MS, () =>
          req.destroy(new Error(`${method} ${key}: no byte moved for ${IDLE_MS / 1000} s (server stalled)`)),
        );
        req.on('error', reject);
        req.end(body);
      });
    return {
      prepare: async (keys) => {
        for (const k of keys) for (const m of ['PUT', 'GET']) urls.set(`${m} ${k}`, await presign(m, k));
      },
      ensureBucket: sdk.ensureBucket,
      put: async (key, body) => (await send('PUT', key, body)).headers.etag,
      get: async (key) => (await send('GET', key)).body,
      remove: sdk.remove,
    };
  },
};

async function ensureBucket(client, s3, bucket) {
  try {
    await client.send(new s3.CreateBucketCommand({ Bucket: bucket }));
  } catch (e) {
    if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(e.name)) throw e;
  }
}

let state;

async function setup(o) {
  const client = await CLIENTS[o.client](o);
  const payload = randomFillSync(Buffer.allocUnsafe(o.size));
  const etag = `"${createHash('md5').update(payload).digest('hex')}"`;
  const keys = Array.from({ length: o.keys }, (_, i) => `${o.keyPrefix}-${i}`);
  await client.ensureBucket();
  await client.prepare(keys);
  // GETs need the objects; both directions warm the connections and the JIT (untimed)
  for (const k of keys) await client.put(k, payload);
  for (let i = 0; i < Math.min(o.warmup, keys.length); i++) await client[o.op](keys[i], payload);
  state = { o, client, payload, etag, keys };
}

async function go() {
  const { o, client, payload, etag, keys } = state;
  const failures = [];
  let next = 0;
  let ops = 0;
  const cpu0 = selfCpuMs();
  const one = async (i) => {
    const key = keys[i % keys.length];
    if (o.op === 'put') {
      const got = await client.put(key, payload);
      if (got !== etag) throw new Error(`PUT ${key}: ETag ${got}, expected ${etag}`);
    } else {
      const got = await client.get(key);
      if (!payload.equals(got))
        throw new Error(`GET ${key}: ${got.length} bytes differ from what was stored`);
    }
  };
  const lane = async () => {
    while (next < o.ops) {
      const i = next++;
      try {
        await one(i);
        ops++;
      } catch (e) {
        if (failures.length < 5) failures.push(String(e?.message ?? e));
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, lane));
  return { ops, bytes: ops * o.size, failures, cpuMs: selfCpuMs() - cpu0 };
}

async function cleanup() {
  for (const k of state.keys) await state.client.remove(k).catch(() => {});
}

const STEPS = {
  setup: async (m) => {
    await setup(m.options);
    return { ready: true };
  },
  go: async () => ({ done: true, ...(await go()) }),
  cleanup: async () => {
    await cleanup();
    return { clean: true };
  },
};

process.on('message', async (m) => {
  try {
    process.send(await STEPS[m.step](m));
  } catch (e) {
    process.send({ error: String(e?.stack ?? e) });
  }
});
