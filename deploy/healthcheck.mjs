// The container's HEALTHCHECK: GET the liveness path on loopback and exit 0 on 200, 1 otherwise.
// It reads the gateway's own environment — VGW_PORT (`:7070`, `HOST:PORT`), VGW_HEALTH (the path)
// and VGW_CERT (HTTPS when set) — so it probes what the gateway serves, or VGW_HEALTHCHECK_URL
// when that is set. Over HTTPS it does not check the certificate: it asks "is the process
// serving", not "is this the right server", and a loopback self-check has no one to be fooled by.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

function target(env) {
  if (env.VGW_HEALTHCHECK_URL) return env.VGW_HEALTHCHECK_URL;
  const path = env.VGW_HEALTH;
  if (!path) {
    console.error("vgwrdma-healthcheck: set VGW_HEALTH (the gateway's --health path) or VGW_HEALTHCHECK_URL");
    process.exit(1);
  }
  const port = /:(\d+)$/.exec(env.VGW_PORT ?? ':7070')?.[1] ?? '7070';
  return `${env.VGW_CERT ? 'https' : 'http'}://127.0.0.1:${port}${path}`;
}

const url = new URL(target(process.env));
const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
const req = request(url, { method: 'GET', timeout: 4000, rejectUnauthorized: false }, (res) => {
  res.resume();
  console.log(`${url.href} ${res.statusCode}`);
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('no answer within 4 s')));
req.on('error', (error) => {
  console.error(`vgwrdma-healthcheck: ${url.href}: ${error.message}`);
  process.exit(1);
});
req.end();
