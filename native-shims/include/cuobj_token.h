/*
 * cuobj_token.h — the cuObject DC v1 token codec shared by the server and both clients.
 *
 * Canonical form (81 chars, lowercase hex, printf "%016lx:%08x:%08x:%04x:%06x:%01x:%016lx%016lx"):
 *   addr16 : size8 : rkey8 : lid4 : dctn6 : gidpresent1 : gid32
 * Suffixed override form (older MinIO clients, hipObject):
 *   <81-char token>:<addr 16 hex>:<size 16 hex>   optionally followed by one ';'
 *   A zero in a suffix field means "no override" for that field.
 * RC / hipObject tokens (first field longer than 16 hex chars, or an "rc:" prefix) are
 * recognised and refused with -EPROTONOSUPPORT so callers can answer 501, not 400.
 *
 * Pure functions, no allocation, thread-safe.
 */
#ifndef CUOBJ_TOKEN_H
#define CUOBJ_TOKEN_H

#include "vgw_shim_common.h"

#ifdef __cplusplus
extern "C" {
#endif

#define CUOBJ_TOKEN_LEN 81u          /* canonical form, without NUL */
#define CUOBJ_TOKEN_SUFFIXED_LEN 115u /* 81 + ":" + 16 + ":" + 16, without ';' and NUL */
#define CUOBJ_TOKEN_MAX_LEN 116u     /* longest accepted input (suffixed + ';'), without NUL */

/* cuObjOpType_t values */
#define CUOBJ_OP_GET 0u
#define CUOBJ_OP_PUT 1u

/* A parsed token. Flat, no padding holes; sizeof == 56 on LP64.
 * offsets: addr 0, size 8, rkey 12, lid 16, gid_present 18, has_override 19, dctn 20, gid 24,
 *          override_addr 40, override_size 48. */
typedef struct cuobj_token {
  uint64_t addr;          /* field 1: remote base virtual address */
  uint32_t size;          /* field 2: PUT payload size / GET capacity; > 0 */
  uint32_t rkey;          /* field 3 */
  uint16_t lid;           /* field 4 */
  uint8_t gid_present;    /* field 6: 0 or 1 */
  uint8_t has_override;   /* 1 when the suffixed form was parsed / is to be formatted */
  uint32_t dctn;          /* field 5: 24 bits */
  uint8_t gid[16];        /* field 7: raw bytes, gid[0] printed first */
  uint64_t override_addr; /* suffix field 1; 0 = no override */
  uint64_t override_size; /* suffix field 2; 0 = no override */
} cuobj_token_t;

typedef enum cuobj_token_kind {
  CUOBJ_TOKEN_INVALID = 0,
  CUOBJ_TOKEN_DC_V1 = 1, /* canonical or suffixed DC v1 */
  CUOBJ_TOKEN_RC = 2     /* RC / hipObject style: not supported (answer 501) */
} cuobj_token_kind_t;

/* Parse a NUL-terminated token. 0 on success (out filled), -EINVAL when malformed (wrong
 * length/widths, uppercase or non-hex, size 0, gid_present not 0/1), -EPROTONOSUPPORT for an
 * RC-style token. out is zeroed on failure. */
VGW_API int cuobj_token_parse(const char *s, cuobj_token_t *out);

/* Classify without parsing fully: one of cuobj_token_kind_t. */
VGW_API int cuobj_token_classify(const char *s);

/* Format t into out (NUL-terminated). Canonical form, or the suffixed form (no ';') when
 * t->has_override is 1. Returns the length written (81 or 115, excluding NUL), -EINVAL when t
 * is not encodable (size 0, dctn > 24 bits, gid_present/has_override not 0/1), -ENOSPC when
 * cap is too small (cap must be >= length + 1). */
VGW_API int cuobj_token_format(const cuobj_token_t *t, char *out, size_t cap);

/* The effective remote window of a parsed token: overrides applied (non-zero suffix fields
 * replace addr / size). Returns 0, or -EINVAL for a NULL argument. */
VGW_API int cuobj_token_effective(const cuobj_token_t *t, uint64_t *addr, uint64_t *size);

#ifdef __cplusplus
}
#endif
#endif
