/* MD5's compression function, one stream at a time (scalar) and many streams in lockstep (the
 * "multi-buffer" technique: lane l of each SIMD register carries stream l, so one AVX-512 pass
 * hashes a block of sixteen streams for about the cost of one scalar block). A gateway receiving
 * many parts at once hashes them all on one core this way instead of one core each.
 * Internal to the library (no VGW_API): md5_engine.c and the C tests use it. */
#ifndef VGW_MD5_LANES_H
#define VGW_MD5_LANES_H

#include <stddef.h>
#include <stdint.h>

#define VGW_MD5_MAX_LANES 16

/* The initial state (RFC 1321 section 3.3). */
void vgw_md5_init(uint32_t h[4]);

/* Hashes nblocks 64-byte blocks at p into h, one stream. */
void vgw_md5_compress(uint32_t h[4], const uint8_t *p, size_t nblocks);

/* Lanes of the widest lockstep kernel this CPU runs (16 with AVX-512F, 8 with AVX2), or 0 when
 * there is none (then only vgw_md5_compress is available). VGW_MD5_LANES=0|8|16 in the
 * environment caps it (tests and benchmarks compare the kernels). */
int vgw_md5_lanes(void);

/* Hashes nblocks blocks of each of the vgw_md5_lanes() streams in lockstep: stream l's state is
 * h[l][0..3] and its blocks start at p[l] (every p[l] must have nblocks * 64 readable bytes). */
void vgw_md5_compress_lanes(uint32_t (*h)[4], const uint8_t *const *p, size_t nblocks);

#endif
