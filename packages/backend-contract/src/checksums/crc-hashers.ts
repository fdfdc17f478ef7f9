// CRC64NVME (the NVMe CRC-64: reflected polynomial 0x9a6c9329ac4bc9b5, init and xorout
// all-ones) and CRC32C (Castagnoli, reflected 0x82f63b78) hashers: on the native kernels when a
// loader installed them (kernels.ts), else on the WebAssembly kernel.
// Why not the SDK's packages: their hashers only have an async digest() (the registry's is
// synchronous) and run 5–50× slower (bench/crc-throughput.mjs). The SDK implementations and
// @aws-crypto/crc32c are the oracles in checksums.test.ts, so the two cannot drift apart.
import { InvalidStateError } from '@vgwrdma/errors';
import { type CrcField, combineCrc, crcField, crcToBase64 } from './crc-combine.js';
import { CrcKernel } from './crc-kernel.js';
import { type CrcKernels, checksumKernels } from './kernels.js';
import type { Hasher } from './types.js';

export const CRC64NVME_POLY = 0x9a6c9329ac4bc9b5n;
export const CRC32C_POLY = 0x82f63b78n;

let crc64Kernel: CrcKernel | undefined;
let crc64Field: CrcField | undefined;
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

/**
 * CRC64NVME on the native kernel: the state is the finished CRC, updated in place. Off-thread
 * updates run at once and in parallel, each chunk from a zero state, and are folded into the
 * state in call order as they finish (crc(A‖B) from crc(A), crc(B), len(B): crc-combine.ts), so
 * no chunk waits for the previous one — nor for the event loop to chain it — before its CRC runs
 * and its memory can be handed back.
 */
class NativeCrc64Hasher implements Hasher {
  private readonly state = new BigUint64Array(1);
  /** Off-thread results by call number, not yet folded (an earlier one is still running). */
  private readonly done = new Map<number, [crc: bigint, length: number]>();
  private issued = 0;
  private folded = 0;
  constructor(private readonly native: CrcKernels) {}
  update(chunk: Uint8Array): void {
    this.assertSettled('update');
    if (chunk.length > 0) this.native.crc64nvme(this.state, chunk);
  }
  updateOffThread(chunk: Uint8Array): Promise<void> {
    if (chunk.length === 0) return Promise.resolve();
    const seq = this.issued++;
    const part = new BigUint64Array(1);
    return this.native.crc64nvmeOffThread(part, chunk).then(() => {
      this.done.set(seq, [part[0] as bigint, chunk.length]);
      this.fold();
    });
  }
  digest(): string {
    this.assertSettled('digest');
    return crcToBase64(this.state[0] as bigint, 8);
  }
  /** Folds the finished results that follow the state without a gap. */
  private fold(): void {
    crc64Field ??= crcField(64, CRC64NVME_POLY);
    for (let next = this.done.get(this.folded); next; next = this.done.get(this.folded)) {
      this.done.delete(this.folded++);
      this.state[0] = combineCrc(crc64Field, this.state[0] as bigint, next[0], next[1]);
    }
  }
  private assertSettled(what: string): void {
    if (this.folded !== this.issued)
      throw new InvalidStateError(`CRC64NVME ${what} before its off-thread updates finished`);
  }
}

class NativeCrc32cHasher implements Hasher {
  private readonly state = new Uint32Array(1);
  constructor(private readonly native: CrcKernels) {}
  update(chunk: Uint8Array): void {
    if (chunk.length > 0) this.native.crc32c(this.state, chunk);
  }
  digest(): string {
    return crcToBase64(BigInt(this.state[0] as number), 4);
  }
}

export function createCrc64Nvme(): Hasher {
  const native = checksumKernels().crc;
  if (native) return new NativeCrc64Hasher(native);
  crc64Kernel ??= new CrcKernel(64, CRC64NVME_POLY);
  return new KernelHasher(crc64Kernel);
}

export function createCrc32c(): Hasher {
  const native = checksumKernels().crc;
  if (native) return new NativeCrc32cHasher(native);
  crc32cKernel ??= new CrcKernel(32, CRC32C_POLY);
  return new KernelHasher(crc32cKernel);
}
