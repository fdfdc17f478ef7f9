/* fuzz_parsers.c — seeded fuzzing of the two pure parsers, under ASan/UBSan:
 *  - the softnic frame header (snic_hdr_unpack / snic_hdr_pack): random and mutated 40-byte
 *    headers; the verdict must be "magic and version right", and pack(unpack(x)) == x always;
 *  - the DC v1 token (cuobj_token_parse / classify / format): random, generated and mutated
 *    strings, each in a heap block of exactly its size (ASan sees any read past the NUL); the
 *    verdict must equal an independent oracle written from docs/protocol.md, and an accepted token
 *    must format back to the same text.
 * Iterations: argv[2], else $FUZZ_RUNS, else a CI-sized default; seed: $FUZZ_SEED (printed). */
#include <errno.h>
#include <string.h>

#include "cuobj_token.h"
#include "fuzz_support.h"
#include "harness.h"
#include "softnic/wire.h"

/* ---- frame header ------------------------------------------------------------------------ */

static void header_bytes(uint64_t *rng, uint8_t raw[SNIC_HDR_LEN]) {
  uint64_t mode = test_rand(rng) % 4;
  if (mode == 0) { /* pure noise */
    for (unsigned i = 0; i < SNIC_HDR_LEN; i++) raw[i] = (uint8_t)test_rand(rng);
    return;
  }
  snic_hdr_t h = snic_hdr_make((uint8_t)(test_rand(rng) % 20));
  h.flags = (uint16_t)test_rand(rng);
  h.status = (int32_t)test_rand(rng);
  h.rkey = (uint32_t)test_rand(rng);
  h.addr = fuzz_edge_u64(rng);
  h.length = fuzz_edge_u64(rng);
  h.arg = fuzz_edge_u64(rng);
  snic_hdr_pack(&h, raw);
  if (mode == 1) return; /* a valid header */
  unsigned flips = 1 + (unsigned)(test_rand(rng) % 3);
  for (unsigned i = 0; i < flips; i++) raw[test_rand(rng) % SNIC_HDR_LEN] ^= (uint8_t)(1u << (test_rand(rng) % 8));
}

static void wire_header(void) {
  uint64_t runs = fuzz_runs(200000), rng = fuzz_seed("wire_header");
  uint64_t accepted = 0;
  for (uint64_t i = 0; i < runs; i++) {
    uint8_t raw[SNIC_HDR_LEN], back[SNIC_HDR_LEN];
    header_bytes(&rng, raw);
    snic_hdr_t h;
    int rc = snic_hdr_unpack(raw, &h);
    uint32_t magic = (uint32_t)raw[0] | (uint32_t)raw[1] << 8 | (uint32_t)raw[2] << 16 | (uint32_t)raw[3] << 24;
    int valid = magic == SNIC_MAGIC && raw[4] == SNIC_VERSION;
    CHECK_EQ_INT(rc, valid ? 0 : -EPROTO);
    accepted += valid;
    snic_hdr_pack(&h, back); /* every one of the 40 bytes is a field: the codec is a bijection */
    CHECK(memcmp(raw, back, SNIC_HDR_LEN) == 0);
  }
  CHECK(accepted > runs / 8 && accepted < runs); /* both verdicts were exercised */
  fuzz_report("wire_header", runs);
}

/* ---- token ------------------------------------------------------------------------------- */

/* The oracle, written from docs/protocol.md rather than from token.c. */
static int lower_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

static int oracle(const char *s, size_t len) {
  if (len >= 3 && (s[0] | 0x20) == 'r' && (s[1] | 0x20) == 'c' && s[2] == ':') return -EPROTONOSUPPORT;
  size_t first = 0;
  while (first < len && s[first] != ':') first++;
  int first_hex = 1;
  for (size_t i = 0; i < first; i++) first_hex &= lower_hex(s[i]);
  if (first > 16 && first_hex) return -EPROTONOSUPPORT;
  int suffixed = len == 115 || (len == 116 && s[115] == ';');
  if (len != 81 && !suffixed) return -EINVAL;
  static const unsigned colons[] = {16, 25, 34, 39, 46, 48, 81, 98};
  size_t hex_end = suffixed ? 115 : 81;
  for (size_t i = 0; i < hex_end; i++) {
    int colon = 0;
    for (unsigned k = 0; k < (suffixed ? 8u : 6u); k++) colon |= colons[k] == i;
    if (colon ? s[i] != ':' : !lower_hex(s[i])) return -EINVAL;
  }
  if (memcmp(s + 17, "00000000", 8) == 0) return -EINVAL; /* size 0 */
  if (s[47] != '0' && s[47] != '1') return -EINVAL;      /* GID flag */
  return 0;
}

static const char k_alphabet[] = "0123456789abcdefABCDEFg:;x -\n\t\x01\xff%";

static size_t random_token(uint64_t *rng, char *out) {
  cuobj_token_t t;
  memset(&t, 0, sizeof t);
  t.addr = fuzz_edge_u64(rng);
  t.size = (uint32_t)test_rand(rng) | (test_rand(rng) % 2 ? 0 : 1u);
  if (t.size == 0) t.size = 1;
  t.rkey = (uint32_t)test_rand(rng);
  t.lid = (uint16_t)test_rand(rng);
  t.dctn = (uint32_t)test_rand(rng) & 0xffffffu;
  t.gid_present = (uint8_t)(test_rand(rng) & 1);
  for (unsigned i = 0; i < 16; i++) t.gid[i] = (uint8_t)test_rand(rng);
  t.has_override = (uint8_t)(test_rand(rng) % 3 == 0);
  if (t.has_override) {
    t.override_addr = test_rand(rng) % 2 ? 0 : fuzz_edge_u64(rng);
    t.override_size = test_rand(rng) % 2 ? 0 : fuzz_edge_u64(rng);
  }
  int n = cuobj_token_format(&t, out, 200);
  CHECK(n == 81 || n == 115);
  if (n == 115 && test_rand(rng) % 4 == 0) out[n++] = ';';
  out[n] = '\0';
  return (size_t)n;
}

/* A candidate string of length <= 190 in buf: generated, mutated, noise, or an RC form. */
static size_t candidate(uint64_t *rng, char *buf) {
  size_t n = random_token(rng, buf);
  uint64_t mode = test_rand(rng) % 10;
  if (mode < 3) return n; /* valid as generated */
  if (mode == 3) {        /* noise of a plausible length */
    n = test_rand(rng) % 3 == 0 ? 81 : (size_t)(test_rand(rng) % 130);
    for (size_t i = 0; i < n; i++) buf[i] = k_alphabet[test_rand(rng) % (sizeof k_alphabet - 1)];
    buf[n] = '\0';
    return n;
  }
  if (mode == 4) { /* RC-looking: longer first field or an rc: prefix */
    if (test_rand(rng) % 2) {
      memmove(buf + 3, buf, n + 1);
      memcpy(buf, "rc:", 3);
      return n + 3;
    }
    memmove(buf + 1, buf, n + 1);
    buf[0] = 'a';
    return n + 1;
  }
  unsigned edits = 1 + (unsigned)(test_rand(rng) % 3);
  for (unsigned e = 0; e < edits; e++) {
    size_t at = (size_t)(test_rand(rng) % (n + 1));
    char c = k_alphabet[test_rand(rng) % (sizeof k_alphabet - 1)];
    uint64_t kind = test_rand(rng) % 4;
    if (kind == 0 && at < n) buf[at] = c;                     /* replace */
    if (kind == 1 && n < 188) {                               /* insert */
      memmove(buf + at + 1, buf + at, n - at + 1);
      buf[at] = c;
      n++;
    }
    if (kind == 2 && at < n) {                                /* delete */
      memmove(buf + at, buf + at + 1, n - at);
      n--;
    }
    if (kind == 3) n = at;                                    /* truncate */
    buf[n] = '\0';
  }
  if (test_rand(rng) % 20 == 0 && n >= 25) memcpy(buf + 17, "00000000", 8); /* size 0 */
  return n;
}

static void token_parse(void) {
  uint64_t runs = fuzz_runs(20000), rng = fuzz_seed("token_parse");
  uint64_t verdicts[3] = {0, 0, 0};
  char buf[200], back[200];
  for (uint64_t i = 0; i < runs; i++) {
    size_t n = candidate(&rng, buf);
    char *s = fuzz_exact_copy(buf, n); /* heap block of n + 1 bytes */
    cuobj_token_t t;
    int rc = cuobj_token_parse(s, &t);
    int want = oracle(s, n);
    if (rc != want) fprintf(stderr, "token %s: parse %d, oracle %d\n", s, rc, want);
    CHECK_EQ_INT(rc, want);
    int kind = cuobj_token_classify(s);
    CHECK_EQ_INT(kind, rc == 0 ? CUOBJ_TOKEN_DC_V1 : rc == -EPROTONOSUPPORT ? CUOBJ_TOKEN_RC : CUOBJ_TOKEN_INVALID);
    if (rc == 0) {
      verdicts[0]++;
      CHECK_EQ_INT(t.has_override, n > 81);
      int m = cuobj_token_format(&t, back, sizeof back);
      CHECK_EQ_INT(m, n > 81 ? 115 : 81);
      CHECK(memcmp(back, s, (size_t)m) == 0);
    } else {
      verdicts[rc == -EINVAL ? 1 : 2]++;
      cuobj_token_t zero;
      memset(&zero, 0, sizeof zero);
      CHECK(memcmp(&t, &zero, sizeof t) == 0); /* out is zeroed on failure */
    }
    free(s);
  }
  for (int k = 0; k < 3; k++) CHECK(verdicts[k] > runs / 50);
  fuzz_report("token_parse", runs);
}

FUZZ_MAIN(CASE(wire_header), CASE(token_parse))
