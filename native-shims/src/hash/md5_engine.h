/* The MD5 engine: many streams hashed in lockstep on a few dedicated threads (the multi-buffer
 * kernels of md5_lanes.h), so a gateway receiving sixteen parts at once spends about one core on
 * their MD5s instead of sixteen, and no libuv pool thread is held while a stream is hashed.
 *
 * A submission is asynchronous: vgw_md5mb_submit() queues a buffer (kept, not copied) and returns
 * at once; an engine thread hashes it alongside the other streams' buffers; its tag then comes
 * out of vgw_md5mb_reap(), which a caller runs on one thread of its own (koffi's async call: one
 * libuv thread waits for every stream's completions). One submission per stream at a time: the
 * next follows the reaped one, in order. Partial 64-byte blocks are carried between submissions
 * in the stream; vgw_md5mb_final() pads and ends. The values are MD5's (RFC 1321), checked
 * against OpenSSL by test_md5_engine. */
#ifndef VGW_MD5_ENGINE_H
#define VGW_MD5_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include "vgw_shim_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vgw_md5mb vgw_md5mb_t;

/* Streams one engine pass hashes together: 16 (AVX-512F), 8 (AVX2), or 1 (no SIMD kernel: the
 * engine still works, one stream per pass, and a caller may prefer another MD5). */
VGW_API int vgw_md5mb_lanes(void);

/* A fresh stream; NULL (see vgw_shim_last_error) when out of memory. */
VGW_API vgw_md5mb_t *vgw_md5mb_new(void);

/* Queues buf[0..len) after what the stream covered. Returns 0 when the engine holds the buffer
 * until `tag` comes out of vgw_md5mb_reap (the buffer must stay unchanged until then), 1 when it
 * was hashed already (short or tail-only input: no tag will come), or a negative errno: -EBUSY
 * while the stream's previous submission is not reaped, -EINVAL after final. */
VGW_API int vgw_md5mb_submit(vgw_md5mb_t *m, const void *buf, size_t len, uint64_t tag);

/* Waits up to timeout_ms (negative: no limit) for hashed submissions and writes up to cap of
 * their tags to tags; returns how many (0 on timeout). */
VGW_API int vgw_md5mb_reap(uint64_t *tags, int cap, int timeout_ms);

/* Writes the 16-byte digest to out (cap >= 16) and ends the stream; returns 16 or a negative
 * errno (-EBUSY while a submission is in flight). */
VGW_API int vgw_md5mb_final(vgw_md5mb_t *m, uint8_t *out, size_t cap);

/* Frees the stream (NULL is ignored). A stream whose submission is still in flight is freed by
 * the engine once that submission is hashed (its tag is still reaped). */
VGW_API void vgw_md5mb_free(vgw_md5mb_t *m);

#ifdef __cplusplus
}
#endif

#endif
