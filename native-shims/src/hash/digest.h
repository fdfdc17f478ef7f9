/* Streaming MD5 and SHA-256 for large uploads, through the OpenSSL that is already in the process:
 * Node's own (the node binary exports its EVP_* symbols, found with dlsym(RTLD_DEFAULT)), else a
 * system libcrypto.so.3 / libcrypto.so. No header or library is needed to build the shims.
 *
 * Why: node:crypto hashes on the JavaScript thread. @vgwrdma/backend-contract calls these through koffi's
 * async calls, so an upload's MD5 (and the gateway's SHA-256 of a signed payload) run on libuv pool
 * threads, in parallel with each other and with the socket reads, file writes and RDMA transfers,
 * with the very same implementation node:crypto would use.
 *
 * A context is used by one thread at a time (callers serialise its updates); different contexts
 * are independent. */
#ifndef VGW_DIGEST_H
#define VGW_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#include "vgw_shim_common.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { VGW_DIGEST_MD5 = 1, VGW_DIGEST_SHA256 = 2 };

typedef struct vgw_digest vgw_digest_t;

/* 1 when an OpenSSL with the EVP digest API was found (in the process or as libcrypto). */
VGW_API int vgw_digest_available(void);

/* Where the EVP functions came from: "process", the library's file name, or NULL when none. */
VGW_API const char *vgw_digest_source(void);

/* A fresh context for VGW_DIGEST_MD5 or VGW_DIGEST_SHA256; NULL (see vgw_shim_last_error) when
 * the algorithm is unknown or no OpenSSL is available. */
VGW_API vgw_digest_t *vgw_digest_new(int alg);

/* Hashes buf[0..len) after what the context has covered. 0, or a negative errno. */
VGW_API int vgw_digest_update(vgw_digest_t *d, const void *buf, size_t len);

/* Writes the digest (16 bytes for MD5, 32 for SHA-256) to out, which holds cap bytes; returns
 * its length, or a negative errno. The context cannot be updated afterwards. */
VGW_API int vgw_digest_final(vgw_digest_t *d, uint8_t *out, size_t cap);

/* Frees the context (NULL is ignored). */
VGW_API void vgw_digest_free(vgw_digest_t *d);

#ifdef __cplusplus
}
#endif

#endif
