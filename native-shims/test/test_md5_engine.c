/* test_md5_engine.c — the multi-buffer MD5: each lockstep kernel equals the scalar compression
 * lane by lane; RFC 1321's test suite through the engine; many streams cut at random points and
 * submitted side by side equal OpenSSL's MD5 of the same bytes; and the refusals (a second
 * submission in flight, final while in flight, final twice, a short output). A stream freed while
 * its submission is in flight is freed by reap (ASan's leak check watches). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "hash/digest.h"
#include "hash/md5_engine.h"
#include "hash/md5_lanes.h"

static void hex(const uint8_t *b, int n, char *out) {
  for (int i = 0; i < n; i++) snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* Every lane of the lockstep kernel ends where the scalar compression of its own blocks ends. */
static void kernel_equals_scalar(int want_lanes) {
  if (want_lanes > 0) setenv("VGW_MD5_LANES", want_lanes == 16 ? "16" : "8", 1);
  int lanes = vgw_md5_lanes();
  if (want_lanes > 0 && lanes != want_lanes) skip_case("this CPU has no kernel of that width");
  if (lanes == 0) skip_case("no lockstep kernel on this CPU");
  enum { BLOCKS = 37 };
  static uint8_t data[VGW_MD5_MAX_LANES][BLOCKS * 64];
  uint32_t h[VGW_MD5_MAX_LANES][4], want[VGW_MD5_MAX_LANES][4];
  const uint8_t *p[VGW_MD5_MAX_LANES];
  for (int l = 0; l < lanes; l++) {
    test_fill(data[l], sizeof data[l], 100 + (uint64_t)l);
    vgw_md5_init(h[l]);
    h[l][0] ^= (uint32_t)l; /* lanes start from different states too */
    memcpy(want[l], h[l], sizeof want[l]);
    vgw_md5_compress(want[l], data[l], BLOCKS);
    p[l] = data[l];
  }
  vgw_md5_compress_lanes(h, p, BLOCKS);
  for (int l = 0; l < lanes; l++) CHECK(memcmp(h[l], want[l], sizeof h[l]) == 0);
}

static void kernel_x16(void) {
  kernel_equals_scalar(16);
}

static void kernel_x8(void) {
  kernel_equals_scalar(8);
}

/* Submits data in pieces of at most `piece` bytes, reaping each in-flight one; the hex digest. */
static void engine_md5(const uint8_t *data, size_t len, size_t piece, char *out) {
  vgw_md5mb_t *m = vgw_md5mb_new();
  CHECK(m != NULL);
  for (size_t at = 0; at < len || (len == 0 && at == 0); at += piece) {
    size_t n = len - at < piece ? len - at : piece;
    int rc = vgw_md5mb_submit(m, data + at, n, 7);
    CHECK(rc == 0 || rc == 1);
    if (rc == 0) {
      uint64_t tag = 0;
      CHECK_EQ_INT(vgw_md5mb_reap(&tag, 1, -1), 1);
      CHECK(tag == 7);
    }
    if (len == 0) break;
  }
  uint8_t d[16];
  CHECK_EQ_INT(vgw_md5mb_final(m, d, sizeof d), 16);
  hex(d, 16, out);
  vgw_md5mb_free(m);
}

static void rfc1321_suite(void) {
  static const struct {
    const char *in, *md5;
  } rows[] = {
      {"", "d41d8cd98f00b204e9800998ecf8427e"},
      {"a", "0cc175b9c0f1b6a831c399e269772661"},
      {"abc", "900150983cd24fb0d6963f7d28e17f72"},
      {"message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
      {"abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"},
      {"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"},
      {"12345678901234567890123456789012345678901234567890123456789012345678901234567890",
       "57edf4a22be3c955ac49da2e2107b67a"},
  };
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
    char got[33];
    engine_md5((const uint8_t *)rows[i].in, strlen(rows[i].in), 1 << 20, got);
    CHECK(strcmp(got, rows[i].md5) == 0);
    engine_md5((const uint8_t *)rows[i].in, strlen(rows[i].in), 3, got);
    CHECK(strcmp(got, rows[i].md5) == 0);
  }
}

typedef struct stream {
  vgw_md5mb_t *m;
  size_t len, at;
  int in_flight, done;
  char want[33];
} stream_t;

/* Forty streams of random lengths, cut at random points, all in flight at once: every digest is
 * OpenSSL's. */
static void many_streams_match_openssl(void) {
  if (!vgw_digest_available()) skip_case("no OpenSSL (libcrypto.so.3) on this machine");
  enum { STREAMS = 40, MAX = 3 << 20 };
  uint8_t *data = malloc(MAX);
  CHECK(data != NULL);
  test_fill(data, MAX, 11);
  stream_t s[STREAMS];
  uint64_t r = 5;
  for (int i = 0; i < STREAMS; i++) {
    s[i] = (stream_t){.m = vgw_md5mb_new(), .len = test_rand(&r) % MAX};
    CHECK(s[i].m != NULL);
    vgw_digest_t *d = vgw_digest_new(VGW_DIGEST_MD5);
    CHECK(d != NULL);
    CHECK_EQ_INT(vgw_digest_update(d, data, s[i].len), 0);
    uint8_t out[16];
    CHECK_EQ_INT(vgw_digest_final(d, out, sizeof out), 16);
    vgw_digest_free(d);
    hex(out, 16, s[i].want);
  }
  for (int left = STREAMS; left > 0;) {
    for (int i = 0; i < STREAMS; i++) {
      stream_t *x = &s[i];
      if (x->done || x->in_flight) continue;
      if (x->at == x->len) {
        uint8_t out[16];
        char got[33];
        CHECK_EQ_INT(vgw_md5mb_final(x->m, out, sizeof out), 16);
        hex(out, 16, got);
        CHECK(strcmp(got, x->want) == 0);
        vgw_md5mb_free(x->m);
        x->done = 1;
        left--;
        continue;
      }
      size_t piece = 1 + test_rand(&r) % (1 << 20);
      if (piece > x->len - x->at) piece = x->len - x->at;
      int rc = vgw_md5mb_submit(x->m, data + x->at, piece, (uint64_t)i);
      CHECK(rc == 0 || rc == 1);
      x->at += piece;
      x->in_flight = rc == 0;
    }
    uint64_t tags[STREAMS];
    int any = 0;
    for (int i = 0; i < STREAMS; i++) any |= s[i].in_flight;
    if (!any) continue;
    int n = vgw_md5mb_reap(tags, STREAMS, -1);
    CHECK(n > 0);
    for (int k = 0; k < n; k++) {
      CHECK(tags[k] < STREAMS && s[tags[k]].in_flight);
      s[tags[k]].in_flight = 0;
    }
  }
  free(data);
}

static void refusals(void) {
  enum { N = 1 << 20 };
  uint8_t *buf = calloc(1, N);
  CHECK(buf != NULL);
  vgw_md5mb_t *m = vgw_md5mb_new();
  CHECK(m != NULL);
  uint8_t out[16];
  CHECK_EQ_INT(vgw_md5mb_submit(m, NULL, 1, 0), -EINVAL);
  CHECK_EQ_INT(vgw_md5mb_submit(m, buf, N, 1), 0);
  CHECK_EQ_INT(vgw_md5mb_submit(m, buf, N, 2), -EBUSY);
  CHECK_EQ_INT(vgw_md5mb_final(m, out, sizeof out), -EBUSY);
  uint64_t tag = 0;
  CHECK_EQ_INT(vgw_md5mb_reap(&tag, 1, -1), 1);
  CHECK(tag == 1);
  CHECK_EQ_INT(vgw_md5mb_final(m, out, 8), -ENOSPC);
  CHECK_EQ_INT(vgw_md5mb_final(m, out, sizeof out), 16);
  CHECK_EQ_INT(vgw_md5mb_final(m, out, sizeof out), -EINVAL);
  CHECK_EQ_INT(vgw_md5mb_submit(m, buf, 1, 3), -EINVAL);
  vgw_md5mb_free(m);
  CHECK_EQ_INT(vgw_md5mb_reap(&tag, 1, 10), 0); /* nothing in flight: the timeout answers */
  /* freed while in flight: the engine still hashes it, reap hands its tag out and frees it */
  m = vgw_md5mb_new();
  CHECK_EQ_INT(vgw_md5mb_submit(m, buf, N, 4), 0);
  vgw_md5mb_free(m);
  CHECK_EQ_INT(vgw_md5mb_reap(&tag, 1, -1), 1);
  CHECK(tag == 4);
  vgw_md5mb_free(NULL);
  free(buf);
}

TEST_MAIN(CASE(kernel_x16), CASE(kernel_x8), CASE(rfc1321_suite), CASE(many_streams_match_openssl), CASE(refusals))
