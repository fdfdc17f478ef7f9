/* test_token.c — the DC v1 token codec: round trips, the real sample, every malformed shape
 * refused, RC classification, suffixed overrides. */
#include <errno.h>
#include <string.h>

#include "cuobj_token.h"
#include "harness.h"

static const char *k_sample = "000073967e5ff000:00400000:01f2e973:0000:007a03:1:00000000000000000000ffff0f0f0fdf";

static void parses_real_sample(void) {
  cuobj_token_t t;
  CHECK_EQ_INT(cuobj_token_parse(k_sample, &t), 0);
  CHECK(t.addr == 0x000073967e5ff000ull);
  CHECK_EQ_INT(t.size, 0x00400000);
  CHECK_EQ_INT(t.rkey, 0x01f2e973);
  CHECK_EQ_INT(t.lid, 0);
  CHECK_EQ_INT(t.dctn, 0x007a03);
  CHECK_EQ_INT(t.gid_present, 1);
  CHECK_EQ_INT(t.has_override, 0);
  static const uint8_t gid[16] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0x0f, 0x0f, 0x0f, 0xdf};
  CHECK(memcmp(t.gid, gid, 16) == 0);
  char out[128];
  CHECK_EQ_INT(cuobj_token_format(&t, out, sizeof out), 81);
  CHECK(strcmp(out, k_sample) == 0);
  CHECK_EQ_INT(cuobj_token_classify(k_sample), CUOBJ_TOKEN_DC_V1);
}

static void random_round_trips(void) {
  uint64_t s = 42;
  for (int i = 0; i < 2000; i++) {
    cuobj_token_t t;
    memset(&t, 0, sizeof t);
    t.addr = test_rand(&s);
    t.size = (uint32_t)test_rand(&s) | 1;
    t.rkey = (uint32_t)test_rand(&s);
    t.lid = (uint16_t)test_rand(&s);
    t.dctn = (uint32_t)test_rand(&s) & 0xffffff;
    t.gid_present = (uint8_t)(test_rand(&s) & 1);
    test_fill(t.gid, 16, test_rand(&s));
    t.has_override = (uint8_t)(i & 1);
    if (t.has_override) {
      t.override_addr = (i & 2) ? test_rand(&s) : 0;
      t.override_size = (i & 4) ? test_rand(&s) : 0;
    }
    char out[128];
    int n = cuobj_token_format(&t, out, sizeof out);
    CHECK_EQ_INT(n, t.has_override ? 115 : 81);
    CHECK_EQ_INT(strlen(out), (size_t)n);
    cuobj_token_t back;
    CHECK_EQ_INT(cuobj_token_parse(out, &back), 0);
    CHECK(memcmp(&t, &back, sizeof t) == 0);
  }
}

static void suffixed_override(void) {
  char s[140];
  snprintf(s, sizeof s, "%s:%016llx:%016llx", k_sample, 0x1000ull, 0ull);
  cuobj_token_t t;
  CHECK_EQ_INT(cuobj_token_parse(s, &t), 0);
  CHECK_EQ_INT(t.has_override, 1);
  CHECK(t.override_addr == 0x1000);
  CHECK(t.override_size == 0);
  uint64_t a, z;
  CHECK_EQ_INT(cuobj_token_effective(&t, &a, &z), 0);
  CHECK(a == 0x1000);            /* non-zero suffix replaces the address */
  CHECK(z == 0x00400000);        /* zero suffix = keep the token's size */
  strcat(s, ";");
  CHECK_EQ_INT(cuobj_token_parse(s, &t), 0);
  strcat(s, ";");
  CHECK_EQ_INT(cuobj_token_parse(s, &t), -EINVAL); /* only one ';' */
}

/* Each mutation of the sample must be refused with -EINVAL. */
static void malformed_refused(void) {
  char s[140];
  cuobj_token_t t;
  struct { int pos; char ch; } subs[] = {
      {0, 'G'}, {5, 'A'}, {16, '-'}, {20, 'x'}, {25, '0'}, {34, ':'}, {39, 'z'}, {46, '0'}, {47, '2'}, {80, 'F'},
      {48, 'a'},
  };
  for (size_t i = 0; i < sizeof subs / sizeof subs[0]; i++) {
    strcpy(s, k_sample);
    s[subs[i].pos] = subs[i].ch;
    if (strcmp(s, k_sample) == 0) continue;
    if (cuobj_token_parse(s, &t) != -EINVAL) {
      fprintf(stderr, "accepted mutation at %d: %s\n", subs[i].pos, s);
      CHECK(0);
    }
  }
  /* size 0 */
  CHECK_EQ_INT(cuobj_token_parse("000073967e5ff000:00000000:01f2e973:0000:007a03:1:00000000000000000000ffff0f0f0fdf", &t), -EINVAL);
  /* short, long, empty */
  strcpy(s, k_sample);
  s[80] = '\0';
  CHECK_EQ_INT(cuobj_token_parse(s, &t), -EINVAL);
  strcpy(s, k_sample);
  strcat(s, "0");
  CHECK_EQ_INT(cuobj_token_parse(s, &t), -EINVAL);
  CHECK_EQ_INT(cuobj_token_parse("", &t), -EINVAL);
  CHECK_EQ_INT(cuobj_token_parse(NULL, &t), -EINVAL);
  /* a field one char narrower and the next one wider keeps the length: still refused */
  CHECK_EQ_INT(cuobj_token_parse("00073967e5ff000:000400000:01f2e973:0000:007a03:1:00000000000000000000ffff0f0f0fdf", &t), -EINVAL);
  /* bad suffix: uppercase, wrong width */
  snprintf(s, sizeof s, "%s:%016llX:%016llx", k_sample, 0xabcull, 0ull);
  CHECK_EQ_INT(cuobj_token_parse(s, &t), -EINVAL);
  snprintf(s, sizeof s, "%s:%015llx:%017llx", k_sample, 1ull, 1ull);
  CHECK_EQ_INT(cuobj_token_parse(s, &t), -EINVAL);
  CHECK_EQ_INT(cuobj_token_classify(s), CUOBJ_TOKEN_INVALID);
  /* format refuses what cannot be encoded */
  cuobj_token_t bad;
  memset(&bad, 0, sizeof bad);
  bad.size = 1;
  bad.dctn = 0x1000000;
  CHECK_EQ_INT(cuobj_token_format(&bad, s, sizeof s), -EINVAL);
  bad.dctn = 1;
  bad.size = 0;
  CHECK_EQ_INT(cuobj_token_format(&bad, s, sizeof s), -EINVAL);
  bad.size = 1;
  CHECK_EQ_INT(cuobj_token_format(&bad, s, 81), -ENOSPC);
  CHECK_EQ_INT(cuobj_token_format(&bad, s, 82), 81);
}

static void rc_tokens_classified(void) {
  cuobj_token_t t;
  const char *rc1 = "rc:000073967e5ff000:00400000:01f2e973";
  const char *rc2 = "000000000073967e5ff000:00400000:01f2e973:0000:007a03:1:00000000000000000000ffff0f0f0fdf";
  CHECK_EQ_INT(cuobj_token_classify(rc1), CUOBJ_TOKEN_RC);
  CHECK_EQ_INT(cuobj_token_classify(rc2), CUOBJ_TOKEN_RC);
  CHECK_EQ_INT(cuobj_token_parse(rc1, &t), -EPROTONOSUPPORT);
  CHECK_EQ_INT(cuobj_token_parse(rc2, &t), -EPROTONOSUPPORT);
  /* the prefix in any case, as the original vgwrdma client detects it */
  CHECK_EQ_INT(cuobj_token_classify("RC:000073967e5ff000"), CUOBJ_TOKEN_RC);
  CHECK_EQ_INT(cuobj_token_classify("Rc:"), CUOBJ_TOKEN_RC);
  CHECK_EQ_INT(cuobj_token_parse("rC:0001", &t), -EPROTONOSUPPORT);
  CHECK_EQ_INT(cuobj_token_classify("R:0001"), CUOBJ_TOKEN_INVALID);
  /* a long first field that is not hex is just malformed */
  CHECK_EQ_INT(cuobj_token_classify("zzzzzzzzzzzzzzzzzzzz:00400000"), CUOBJ_TOKEN_INVALID);
  CHECK_EQ_INT(cuobj_token_parse("zzzzzzzzzzzzzzzzzzzz:00400000", &t), -EINVAL);
}

TEST_MAIN(CASE(parses_real_sample), CASE(random_round_trips), CASE(suffixed_override), CASE(malformed_refused),
          CASE(rc_tokens_classified))
