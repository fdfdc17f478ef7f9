// A table-driven CRC kernel in WebAssembly, for reflected CRCs up to 64 bits wide (CRC32C,
// CRC64NVME). Why: the performance targets (bench/README.md) asks that CRCs never be the bottleneck of a PUT (MD5 runs at
// ~0.7 GB/s a core), and in JavaScript a 64-bit CRC has to be split into two 32-bit halves; the
// SDK's JS loops and @aws-crypto/crc32c run at 0.02–0.3 GB/s here (bench/crc-throughput.mjs).
// WebAssembly has native 64-bit integers, so slice-by-8 runs as written in C.
//
// The module is assembled from the opcode list below at load time (no build step, nothing
// opaque checked in). Memory layout: 8 tables × 256 × 8 bytes at 0, then the input window.
// Its one function: update(crc: i64, ptr: i32, len: i32) -> i64, on the pre-inverted register.

const TABLE_BYTES = 8 * 256 * 8;
const WINDOW = 256 * 1024;
const PAGES = Math.ceil((TABLE_BYTES + WINDOW) / 65536);

// Opcodes and types used (WebAssembly core spec, binary format).
const I32 = 0x7f;
const I64 = 0x7e;
const op = {
  block: 0x02,
  loop: 0x03,
  br: 0x0c,
  brIf: 0x0d,
  end: 0x0b,
  localGet: 0x20,
  localSet: 0x21,
  i64Load: 0x29,
  i64Load8u: 0x31,
  i32Const: 0x41,
  i64Const: 0x42,
  i32LtU: 0x49,
  i32GeU: 0x4f,
  i32Add: 0x6a,
  i32Sub: 0x6b,
  i32Shl: 0x74,
  i64And: 0x83,
  i64Xor: 0x85,
  i64ShrU: 0x88,
  i32WrapI64: 0xa7,
  void: 0x40,
} as const;

function uleb(n: number): number[] {
  const out: number[] = [];
  let v = n;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

/** Signed LEB128 for the small non-negative constants the kernel uses (< 2^31). */
function sleb(n: number): number[] {
  const out: number[] = [];
  let v = n;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
const name = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s)];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];

// Locals: 0 crc (i64), 1 p (i32), 2 n (i32), 3 end (i32), 4 x (i64).
const [CRC, P, N, END, X] = [0, 1, 2, 3, 4];

/** table[s][(value >> shift) & 255] as an i64 on the stack. */
function lookup(local: number, shift: number, slice: number): number[] {
  // biome-ignore format: one wasm instruction group per line
  return [
    op.localGet, local,
    ...(shift > 0 ? [op.i64Const, ...sleb(shift), op.i64ShrU] : []),
    op.i64Const, ...sleb(255), op.i64And,
    op.i32WrapI64, op.i32Const, 3, op.i32Shl,
    op.i64Load, 3, ...uleb(slice * 2048),
  ];
}

function kernelBody(): number[] {
  const eight: number[] = [];
  // Byte k of x (k = 0 lowest) is followed by 7 - k more bytes: table 7 - k.
  for (let k = 0; k < 8; k++) {
    eight.push(...lookup(X, 8 * k, 7 - k));
    if (k > 0) eight.push(op.i64Xor);
  }
  // biome-ignore format: one wasm statement per line
  const code = [
    op.localGet, P, op.localGet, N, op.i32Add, op.localSet, END,
    // Eight bytes at a time while at least eight remain.
    op.block, op.void, op.loop, op.void,
    op.localGet, END, op.localGet, P, op.i32Sub, op.i32Const, 8, op.i32LtU, op.brIf, 1,
    op.localGet, CRC, op.localGet, P, op.i64Load, 0, 0, op.i64Xor, op.localSet, X,
    ...eight, op.localSet, CRC,
    op.localGet, P, op.i32Const, 8, op.i32Add, op.localSet, P,
    op.br, 0, op.end, op.end,
    // The tail, a byte at a time: crc = (crc >> 8) ^ T0[(crc ^ byte) & 255].
    op.block, op.void, op.loop, op.void,
    op.localGet, P, op.localGet, END, op.i32GeU, op.brIf, 1,
    op.localGet, CRC, op.i64Const, 8, op.i64ShrU,
    op.localGet, CRC, op.localGet, P, op.i64Load8u, 0, 0, op.i64Xor, op.localSet, X,
    ...lookup(X, 0, 0), op.i64Xor, op.localSet, CRC,
    op.localGet, P, op.i32Const, 1, op.i32Add, op.localSet, P,
    op.br, 0, op.end, op.end,
    op.localGet, CRC, op.end,
  ];
  const locals = vec([
    [1, I32],
    [1, I64],
  ]);
  return [...uleb(locals.length + code.length), ...locals, ...code];
}

function moduleBytes(): Uint8Array {
  const magicAndVersion = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];
  // Sections: 1 type (i64, i32, i32) -> i64; 3 function; 5 memory; 7 exports; 10 code.
  const exports = vec([
    [...name('update'), 0x00, 0],
    [...name('mem'), 0x02, 0],
  ]);
  return new Uint8Array([
    ...magicAndVersion,
    ...section(1, vec([[0x60, ...vec([[I64], [I32], [I32]]), ...vec([[I64]])]])),
    ...section(3, vec([[0]])),
    ...section(5, vec([[0x00, ...uleb(PAGES)]])),
    ...section(7, exports),
    ...section(10, vec([kernelBody()])),
  ]);
}

// The slice of the WebAssembly JS API used here (the ES lib and @types/node 20 do not type it).
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

let compiled: object | undefined;

interface KernelExports {
  update(crc: bigint, ptr: number, len: number): bigint;
  mem: { buffer: ArrayBuffer };
}

/** One reflected CRC: its tables live in a private kernel instance. */
export class CrcKernel {
  private readonly exports: KernelExports;
  private readonly bytes: Uint8Array;
  readonly mask: bigint;

  constructor(
    readonly width: number,
    reflectedPoly: bigint,
  ) {
    compiled ??= new Wasm.Module(moduleBytes());
    this.exports = new Wasm.Instance(compiled).exports as KernelExports;
    this.bytes = new Uint8Array(this.exports.mem.buffer);
    this.mask = (1n << BigInt(width)) - 1n;
    const tables = new BigUint64Array(this.exports.mem.buffer, 0, 8 * 256);
    for (let i = 0; i < 256; i++) {
      let c = BigInt(i);
      for (let bit = 0; bit < 8; bit++) c = c & 1n ? (c >> 1n) ^ reflectedPoly : c >> 1n;
      tables[i] = c;
    }
    for (let s = 1; s < 8; s++) {
      for (let i = 0; i < 256; i++) {
        const prev = tables[(s - 1) * 256 + i] as bigint;
        tables[s * 256 + i] = (prev >> 8n) ^ (tables[Number(prev & 0xffn)] as bigint);
      }
    }
  }

  /** Advances a pre-inverted register over `data`, a window at a time. */
  update(register: bigint, data: Uint8Array): bigint {
    let crc = register;
    for (let off = 0; off < data.length; off += WINDOW) {
      const piece = data.subarray(off, Math.min(off + WINDOW, data.length));
      this.bytes.set(piece, TABLE_BYTES);
      crc = this.exports.update(crc, TABLE_BYTES, piece.length);
    }
    return crc;
  }
}
