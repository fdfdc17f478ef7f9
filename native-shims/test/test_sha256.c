/* test_sha256.c — the handshake's SHA-256 / HMAC-SHA256 (src/hash/sha256.c) against published
 * vectors: FIPS 180-2 examples, RFC 4231 HMAC test cases 1, 2, 4 and 6 (key longer than a
 * block), and a hash fed in odd pieces equal to the one-shot hash. */
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hash/sha256.h"

static void hex(const uint8_t *p, size_t n, char *out) {
  for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", p[i]);
}

static void expect_sha(const void *msg, size_t len, const char *want) {
  vgw_sha256_t s;
  uint8_t d[VGW_SHA256_LEN];
  char got[65];
  vgw_sha256_init(&s);
  vgw_sha256_update(&s, msg, len);
  vgw_sha256_final(&s, d);
  hex(d, sizeof d, got);
  if (strcmp(got, want) != 0) fprintf(stderr, "sha256: got %s want %s\n", got, want);
  CHECK(strcmp(got, want) == 0);
}

static void fips_vectors(void) {
  expect_sha("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  expect_sha("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  expect_sha(two, strlen(two), "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void pieces_equal_one_shot(void) {
  uint8_t msg[1000], a[VGW_SHA256_LEN], b[VGW_SHA256_LEN];
  test_fill(msg, sizeof msg, 3);
  vgw_sha256_t s;
  vgw_sha256_init(&s);
  vgw_sha256_update(&s, msg, sizeof msg);
  vgw_sha256_final(&s, a);
  vgw_sha256_init(&s);
  for (size_t off = 0, step = 1; off < sizeof msg; off += step, step = step * 3 % 127 + 1)
    vgw_sha256_update(&s, msg + off, off + step <= sizeof msg ? step : sizeof msg - off);
  vgw_sha256_final(&s, b);
  CHECK(memcmp(a, b, sizeof a) == 0);
}

static void expect_hmac(const uint8_t *key, size_t key_len, const void *msg, size_t len, const char *want) {
  uint8_t d[VGW_SHA256_LEN];
  char got[65];
  const void *parts[] = {msg};
  const size_t lens[] = {len};
  vgw_hmac_sha256(key, key_len, parts, lens, 1, d);
  hex(d, sizeof d, got);
  if (strcmp(got, want) != 0) fprintf(stderr, "hmac: got %s want %s\n", got, want);
  CHECK(strcmp(got, want) == 0);
}

static void rfc4231_vectors(void) {
  uint8_t k1[20], k4[25], k6[131];
  memset(k1, 0x0b, sizeof k1);
  expect_hmac(k1, sizeof k1, "Hi There", 8, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  expect_hmac((const uint8_t *)"Jefe", 4, "what do ya want for nothing?", 28,
              "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  for (size_t i = 0; i < sizeof k4; i++) k4[i] = (uint8_t)(i + 1);
  uint8_t m4[50];
  memset(m4, 0xcd, sizeof m4);
  expect_hmac(k4, sizeof k4, m4, sizeof m4, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
  memset(k6, 0xaa, sizeof k6);
  const char *m6 = "Test Using Larger Than Block-Size Key - Hash Key First";
  expect_hmac(k6, sizeof k6, m6, strlen(m6), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}

TEST_MAIN(CASE(fips_vectors), CASE(pieces_equal_one_shot), CASE(rfc4231_vectors))
