/* test_crc_fast.c — the fast CRCs: the catalogue check values ("123456789"), and the folded /
 * hardware paths against the byte-at-a-time table path on random lengths and alignments, in one
 * call and split at random points (update(update(0, a), b) == update(0, a || b)). */
#include <string.h>

#include "harness.h"
#include "hash/crc_fast.h"

static void check_values(void) {
  uint64_t c = 0;
  vgw_crc64nvme_update(&c, "123456789", 9);
  CHECK(c == 0xae8b14860a799888ull);
  uint32_t d = 0;
  vgw_crc32c_update(&d, "123456789", 9);
  CHECK(d == 0xe3069283u);
  uint64_t empty = 0;
  vgw_crc64nvme_update(&empty, "", 0);
  CHECK(empty == 0);
}

/* The reference: one byte per call, which only the table loop serves. */
static uint64_t crc64_bytewise(const uint8_t *p, size_t n) {
  uint64_t c = 0;
  for (size_t i = 0; i < n; i++) vgw_crc64nvme_update(&c, p + i, 1);
  return c;
}

static uint32_t crc32c_bytewise(const uint8_t *p, size_t n) {
  uint32_t c = 0;
  for (size_t i = 0; i < n; i++) vgw_crc32c_update(&c, p + i, 1);
  return c;
}

static void matches_bytewise(void) {
  enum { MAX = 70000 };
  static uint8_t buf[MAX + 16];
  test_fill(buf, sizeof buf, 7);
  uint64_t s = 11;
  for (int round = 0; round < 300; round++) {
    size_t off = test_rand(&s) % 16;
    size_t len = round < 200 ? (size_t)round * 3 : test_rand(&s) % MAX;
    const uint8_t *p = buf + off;
    uint64_t want64 = crc64_bytewise(p, len);
    uint32_t want32 = crc32c_bytewise(p, len);
    uint64_t one64 = 0;
    vgw_crc64nvme_update(&one64, p, len);
    uint32_t one32 = 0;
    vgw_crc32c_update(&one32, p, len);
    CHECK(one64 == want64);
    CHECK(one32 == want32);
    size_t cut = len == 0 ? 0 : test_rand(&s) % len;
    uint64_t two64 = 0;
    vgw_crc64nvme_update(&two64, p, cut);
    vgw_crc64nvme_update(&two64, p + cut, len - cut);
    CHECK(two64 == want64);
    uint32_t two32 = 0;
    vgw_crc32c_update(&two32, p, cut);
    vgw_crc32c_update(&two32, p + cut, len - cut);
    CHECK(two32 == want32);
  }
}

static void reports_path(void) {
  int a = vgw_crc_accelerated();
  CHECK(a == 0 || a == 1);
}

TEST_MAIN(CASE(check_values), CASE(matches_bytewise), CASE(reports_path))
