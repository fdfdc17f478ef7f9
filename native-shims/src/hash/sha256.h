/*
 * sha256.h — self-contained SHA-256 (FIPS 180-4) and HMAC-SHA256 (RFC 2104), for the softnic
 * handshake: it must work in every process that runs an agent, with or without an OpenSSL in
 * it (digest.c hashes object data with the process's OpenSSL; this is the small, always-there
 * one). Tested against FIPS and RFC 4231 vectors (test_sha256.c).
 */
#ifndef VGW_HASH_SHA256_H
#define VGW_HASH_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define VGW_SHA256_LEN 32u

typedef struct vgw_sha256 {
  uint32_t h[8];
  uint64_t total; /* bytes hashed so far */
  uint8_t block[64];
  size_t fill;
} vgw_sha256_t;

void vgw_sha256_init(vgw_sha256_t *s);
void vgw_sha256_update(vgw_sha256_t *s, const void *data, size_t len);
void vgw_sha256_final(vgw_sha256_t *s, uint8_t out[VGW_SHA256_LEN]);

/* HMAC-SHA256 of the concatenation of n parts (parts[i], lens[i]) under key. */
void vgw_hmac_sha256(const void *key, size_t key_len, const void *const *parts, const size_t *lens, size_t n,
                     uint8_t out[VGW_SHA256_LEN]);

#endif
