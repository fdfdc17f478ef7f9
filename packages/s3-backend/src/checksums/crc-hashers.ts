// CRC64NVME (the NVMe CRC-64: reflected polynomial 0x9a6c9329ac4bc9b5, init and xorout
// all-ones) and CRC32C (Castagnoli, reflected 0x82f63b78) hashers on the WebAssembly kernel.
// Why not the SDK's packages: their hashers only have an async digest() (the registry's is
// synchronous) and run 5–50× slower (bench/crc-throughput.mjs). The SDK implementations and
// @aws-crypto/crc32c are the oracles in checksums.test.ts, so the two cannot drift apart.
import { crcToBase64 } from './crc-combine.js';
import { CrcKernel } from './crc-kernel.js';
import type { Hasher } from './types.js';

export const CRC64NVME_POLY = 0x9a6c9329ac4bc9b5n;
export const CRC32C_POLY = 0x82f63b78n;

let crc64Kernel: CrcKernel | undefined;
let crc32cKernel: CrcKernel | undefined;

class KernelHasher implements Hasher {
  private register: bigint;

  constructor(private readonly kernel: CrcKernel) {
    this.register = kernel.mask;
  }

  update(chunk: Uint8Array): void {
    this.register = this.kernel.update(this.register, chunk);
  }

  digest(): string {
    return crcToBase64(this.register ^ this.kernel.mask, this.kernel.width / 8);
  }
}

export function createCrc64Nvme(): Hasher {
  crc64Kernel ??= new CrcKernel(64, CRC64NVME_POLY);
  return new KernelHasher(crc64Kernel);
}

export function createCrc32c(): Hasher {
  crc32cKernel ??= new CrcKernel(32, CRC32C_POLY);
  return new KernelHasher(crc32cKernel);
}
