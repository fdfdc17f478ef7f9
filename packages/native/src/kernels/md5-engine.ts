// The library's multi-buffer MD5 engine (native-shims/src/hash/md5_engine.c) as DigestCalls for
// NativeDigest (chosen with VGWRDMA_MD5=lanes; see native-digest.ts for why not by default): a submission returns at once and the engine's own threads hash it in lockstep with
// the other uploads' MD5s (sixteen streams a pass with AVX-512, eight with AVX2), so a gateway
// receiving many parts spends about one core on their MD5s instead of one core each. Completions
// come back through one reaper: a single koffi async call of vgw_md5mb_reap, kept outstanding
// only while a submission is in flight (so it never holds the process open), that hands each
// reaped tag to the update's callback.
import type { NativeFn, NativeLibrary } from '../shim-library.js';
import type { DigestCalls } from './native-digest.js';

/** The engine is used only from this ABI minor on (where the library has it). */
const ENGINE_ABI_MINOR = 10;
/** Tags one reap call can hand back. */
const REAP_BATCH = 64;

interface EngineSymbols {
  vgw_md5mb_lanes(): number;
  vgw_md5mb_new(): unknown;
  vgw_md5mb_submit(m: unknown, buf: Uint8Array, len: number, tag: number): number;
  vgw_md5mb_reap: NativeFn;
  vgw_md5mb_final(m: unknown, out: Buffer, cap: number): number;
  vgw_md5mb_free(m: unknown): void;
}

type Done = (err: unknown, rc: unknown) => void;

export interface Md5Engine {
  /** Streams one engine pass hashes together. */
  readonly lanes: number;
  readonly calls: DigestCalls;
  /** A fresh engine stream, or null when the library cannot allocate one. */
  create(): unknown;
}

/**
 * The engine of `lib`, or undefined where it would not help: a library older than the engine, or
 * a CPU without a lockstep kernel (one stream a pass is no faster than OpenSSL's MD5).
 */
export function md5Engine(lib: NativeLibrary): Md5Engine | undefined {
  if ((lib.abiVersion & 0xffff) < ENGINE_ABI_MINOR) return undefined;
  const sym = lib.bind<EngineSymbols>([
    'int vgw_md5mb_lanes(void)',
    'void *vgw_md5mb_new(void)',
    'int vgw_md5mb_submit(void *m, const void *buf, size_t len, uint64_t tag)',
    'int vgw_md5mb_reap(void *tags, int cap, int timeout_ms)',
    'int vgw_md5mb_final(void *m, void *out, size_t cap)',
    'void vgw_md5mb_free(void *m)',
  ]);
  const lanes = sym.vgw_md5mb_lanes();
  if (lanes <= 1) return undefined;
  const waiting = new Map<number, { done: Done; data: Uint8Array }>();
  const tags = Buffer.alloc(8 * REAP_BATCH);
  let nextTag = 1;
  let reaping = false;

  const reap = (): void => {
    if (reaping || waiting.size === 0) return;
    reaping = true;
    sym.vgw_md5mb_reap.async(tags, REAP_BATCH, -1, (err: unknown, n: unknown) => {
      // read every tag before any callback runs: a callback may submit again and so start the
      // next reap into the same buffer
      const count = err ? 0 : Number(n);
      const reaped: number[] = [];
      for (let i = 0; i < count; i++) reaped.push(Number(tags.readBigUInt64LE(8 * i)));
      reaping = false;
      for (const tag of reaped) {
        const w = waiting.get(tag);
        waiting.delete(tag);
        w?.done(null, 0);
      }
      if (err) {
        // the reaper itself failed: nothing in flight can be reported any more
        for (const w of waiting.values()) w.done(err, -1);
        waiting.clear();
      }
      reap();
    });
  };

  const calls: DigestCalls = {
    kernel: 'md5-lanes',
    update(ctx, data, done) {
      const tag = nextTag++;
      const rc = sym.vgw_md5mb_submit(ctx, data, data.length, tag);
      if (rc === 0) {
        // `data` stays referenced until its tag is reaped: the engine reads it, uncopied
        waiting.set(tag, { done, data });
        reap();
        return;
      }
      queueMicrotask(() => done(null, rc === 1 ? 0 : rc));
    },
    final: (ctx, out) => sym.vgw_md5mb_final(ctx, out, out.length),
    free: (ctx) => sym.vgw_md5mb_free(ctx),
  };
  return {
    lanes,
    calls,
    create: () => sym.vgw_md5mb_new(),
  };
}
