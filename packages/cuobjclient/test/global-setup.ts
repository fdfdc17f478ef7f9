// Builds what child processes load: the shims, the gateway fixture's packages and this package.
import { ensureDist, ensureShims, GATEWAY_PACKAGES } from './build-dist.js';

export default function setup(): void {
  ensureShims();
  for (const name of GATEWAY_PACKAGES) ensureDist(name);
  ensureDist('cuobjclient', true);
}
