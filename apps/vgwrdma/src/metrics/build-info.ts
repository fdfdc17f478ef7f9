// vgwrdma_build_info: the constant 1 with what this process runs as labels — the vgwrdma version,
// Node's version and the native shim ABI (the loaded library's, `none` when it cannot load) — so a
// dashboard can tell gateways apart across an upgrade (`group by (version) (vgwrdma_build_info)`).
import { loadNativeLibrary } from '@vgwrdma/native';
import { Gauge, type Registry } from 'prom-client';
import { VERSION } from '../version.js';

/** The loaded shim library's ABI ('1.9'), or 'none'. */
function loadedAbi(): string {
  try {
    return loadNativeLibrary().abi;
  } catch {
    return 'none';
  }
}

export function buildInfo(registry: Registry): void {
  new Gauge({
    name: 'vgwrdma_build_info',
    help: 'Always 1; the labels say which vgwrdma, Node.js and native shim ABI this process runs',
    labelNames: ['version', 'node', 'abi'],
    registers: [registry],
  }).set({ version: VERSION, node: process.versions.node, abi: loadedAbi() }, 1);
}
