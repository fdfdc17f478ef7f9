// CRC64NVME (the NVMe CRC-64: reflected polynomial 0x9a6c9329ac4bc9b5, init and xorout
// all-ones) and CRC32C (Castagnoli, reflected 0x82f63b78) hashers: on the native kernels of the
// shim library when they load (native-crc.ts), else on the WebAssembly kernel.
// Why not the SDK's packages: their hashers only have an async digest() (the registry's is
// synchronous) and run 5–50× slower (bench/crc-throughput.mjs). The SDK implementations and
// @aws-crypto/crc32c are the oracles in checksums.test.ts, so the two cannot drift apart.
import { crcToBase64 } from './crc-combine.js';
import { CrcKernel } from './crc-kernel.js';
import { type NativeCrc, nativeCrc } from './native-crc.js';
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

/** CRC64NVME on the native kernel: the state is the finished CRC, updated in place. */
class NativeCrc64Hasher implements Hasher {
  private readonly state = new BigUint64Array(1);
  constructor(private readonly native: NativeCrc) {}
  private chain: Promise<void> = Promise.resolve();
  update(chunk: Uint8Array): void {
    if (chunk.length > 0) this.native.crc64nvme(this.state, chunk);
  }
  updateOffThread(chunk: Uint8Array): Promise<void> {
    // Chained: each update starts when the previous one finished, so the order holds.
    this.chain = this.chain.then(() =>
      chunk.length > 0 ? this.native.crc64nvmeOffThread(this.state, chunk) : undefined,
    );
    return this.chain;
  }
  digest(): string {
    return crcToBase64(this.state[0] as bigint, 8);
  }
}

class NativeCrc32cHasher implements Hasher {
  private readonly state = new Uint32Array(1);
  constructor(private readonly native: NativeCrc) {}
  update(chunk: Uint8Array): void {
    if (chunk.length > 0) this.native.crc32c(this.state, chunk);
  }
  digest(): string {
    return crcToBase64(BigInt(this.state[0] as number), 4);
  }
}

export function createCrc64Nvme(): Hasher {
  const native = nativeCrc();
  if (native) return new NativeCrc64Hasher(native);
  crc64Kernel ??= new CrcKernel(64, CRC64NVME_POLY);
  return new KernelHasher(crc64Kernel);
}

export function createCrc32c(): Hasher {
  const native = nativeCrc();
  if (native) return new NativeCrc32cHasher(native);
  crc32cKernel ??= new CrcKernel(32, CRC32C_POLY);
  return new KernelHasher(crc32cKernel);
}
