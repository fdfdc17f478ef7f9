/*
 * token.c — DC v1 token codec (see include/cuobj_token.h for the accepted forms).
 * Strict by design: every field has an exact width and lowercase hex only, because the gateway
 * answers 400 for anything malformed and the TypeScript codec is tested against this one.
 */
#include "cuobj_token.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Field table of the canonical form: start offset and width; a ':' follows fields 0..5. */
typedef struct field_spec {
  unsigned start;
  unsigned width;
} field_spec_t;

static const field_spec_t k_fields[7] = {
    {0, 16}, {17, 8}, {26, 8}, {35, 4}, {40, 6}, {47, 1}, {49, 32},
};

static int hex_value(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  return -1; /* uppercase is rejected on purpose: the wire form is lowercase */
}

/* Parse exactly `width` (<= 16) lowercase hex chars; -1 on any non-hex. */
static int parse_hex(const char *s, unsigned width, uint64_t *out) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; i++) {
    int d = hex_value(s[i]);
    if (d < 0) return -1;
    v = (v << 4) | (uint64_t)d;
  }
  *out = v;
  return 0;
}

static int is_hex_run(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (hex_value(s[i]) < 0) return 0;
  return 1;
}

/* RC / hipObject style: an "rc:" prefix in any case (as the original vgwrdma client detects it),
 * or a first field that is a hex run longer than 16. */
static int is_rc_style(const char *s) {
  if ((s[0] == 'r' || s[0] == 'R') && (s[1] == 'c' || s[1] == 'C') && s[2] == ':') return 1;
  const char *colon = strchr(s, ':');
  size_t first = colon ? (size_t)(colon - s) : strlen(s);
  return first > 16 && is_hex_run(s, first);
}

int cuobj_token_classify(const char *s) {
  if (s == NULL) return CUOBJ_TOKEN_INVALID;
  if (is_rc_style(s)) return CUOBJ_TOKEN_RC;
  cuobj_token_t t;
  return cuobj_token_parse(s, &t) == 0 ? CUOBJ_TOKEN_DC_V1 : CUOBJ_TOKEN_INVALID;
}

static int parse_canonical(const char *s, cuobj_token_t *out) {
  uint64_t v[6];
  for (unsigned i = 0; i < 6; i++) {
    if (s[k_fields[i].start + k_fields[i].width] != ':') return -EINVAL;
    if (parse_hex(s + k_fields[i].start, k_fields[i].width, &v[i]) != 0) return -EINVAL;
  }
  uint64_t hi, lo;
  if (parse_hex(s + 49, 16, &hi) != 0 || parse_hex(s + 65, 16, &lo) != 0) return -EINVAL;
  if (v[1] == 0) return -EINVAL; /* size 0 is never a valid transfer */
  if (v[5] > 1) return -EINVAL;  /* a one-hex-digit flag: only 0 or 1 make sense */
  out->addr = v[0];
  out->size = (uint32_t)v[1];
  out->rkey = (uint32_t)v[2];
  out->lid = (uint16_t)v[3];
  out->dctn = (uint32_t)v[4];
  out->gid_present = (uint8_t)v[5];
  for (unsigned i = 0; i < 8; i++) {
    out->gid[i] = (uint8_t)(hi >> (56 - 8 * i));
    out->gid[8 + i] = (uint8_t)(lo >> (56 - 8 * i));
  }
  return 0;
}

int cuobj_token_parse(const char *s, cuobj_token_t *out) {
  if (out == NULL) return -EINVAL;
  memset(out, 0, sizeof *out);
  if (s == NULL) return -EINVAL;
  if (is_rc_style(s)) return -EPROTONOSUPPORT;
  size_t len = strnlen(s, CUOBJ_TOKEN_MAX_LEN + 1);
  int has_suffix;
  if (len == CUOBJ_TOKEN_LEN) {
    has_suffix = 0;
  } else if (len == CUOBJ_TOKEN_SUFFIXED_LEN ||
             (len == CUOBJ_TOKEN_SUFFIXED_LEN + 1 && s[CUOBJ_TOKEN_SUFFIXED_LEN] == ';')) {
    has_suffix = 1;
  } else {
    return -EINVAL;
  }
  cuobj_token_t t;
  memset(&t, 0, sizeof t);
  if (parse_canonical(s, &t) != 0) return -EINVAL;
  if (has_suffix) {
    if (s[81] != ':' || s[98] != ':') return -EINVAL;
    if (parse_hex(s + 82, 16, &t.override_addr) != 0) return -EINVAL;
    if (parse_hex(s + 99, 16, &t.override_size) != 0) return -EINVAL;
    t.has_override = 1;
  }
  *out = t;
  return 0;
}

int cuobj_token_format(const cuobj_token_t *t, char *out, size_t cap) {
  if (t == NULL || out == NULL) return -EINVAL;
  if (t->size == 0 || t->dctn > 0xffffffu || t->gid_present > 1 || t->has_override > 1) return -EINVAL;
  size_t need = (t->has_override ? CUOBJ_TOKEN_SUFFIXED_LEN : CUOBJ_TOKEN_LEN) + 1;
  if (cap < need) return -ENOSPC;
  char gid[33];
  for (unsigned i = 0; i < 16; i++) snprintf(gid + 2 * i, 3, "%02x", t->gid[i]);
  int n = snprintf(out, cap, "%016llx:%08x:%08x:%04x:%06x:%01x:%s", (unsigned long long)t->addr,
                   (unsigned)t->size, (unsigned)t->rkey, (unsigned)t->lid, (unsigned)t->dctn,
                   (unsigned)t->gid_present, gid);
  if (t->has_override)
    n += snprintf(out + n, cap - (size_t)n, ":%016llx:%016llx", (unsigned long long)t->override_addr,
                  (unsigned long long)t->override_size);
  return n;
}

int cuobj_token_effective(const cuobj_token_t *t, uint64_t *addr, uint64_t *size) {
  if (t == NULL || addr == NULL || size == NULL) return -EINVAL;
  *addr = t->override_addr != 0 ? t->override_addr : t->addr;
  *size = t->override_size != 0 ? t->override_size : t->size;
  return 0;
}
