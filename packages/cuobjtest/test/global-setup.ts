// Builds what the cuobjtest child process and the gateway fixture load: the shims, the gateway's
// packages, cuobjclient and this package (dist/main.js is the bin the e2e test runs).
import { ensureDist, ensureShims, GATEWAY_PACKAGES } from '../../cuobjclient/test/build-dist.js';

export default function setup(): void {
  ensureShims();
  for (const name of GATEWAY_PACKAGES) ensureDist(name);
  ensureDist('cuobjclient', true);
  ensureDist('cuobjtest', true);
}
