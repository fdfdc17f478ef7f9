// Builds what the cuobjtest child process and the gateway processes load: the shims, the gateway's
// packages and app (when missing), cuobjclient and this package (dist/main.js is the bin under test).
import { ensureDist, ensureShims, GATEWAY_PACKAGES } from '../../cuobjclient/test/build-dist.js';

export default function setup(): void {
  ensureShims();
  for (const name of [...GATEWAY_PACKAGES, 'apps/vgwrdma']) ensureDist(name);
  ensureDist('cuobjclient', true);
  ensureDist('cuobjtest', true);
}
