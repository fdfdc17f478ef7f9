/* test_digest.c — MD5 / SHA-256 through the process's OpenSSL (here: the system libcrypto, as this
 * binary is not node): the standard test vectors, split updates equal one update, two contexts
 * hashed on two threads at once, and the refusals (unknown algorithm, update after final, final
 * twice, a short output buffer). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"
#include "hash/digest.h"
#include "vgw_shim_common.h"

static void need_openssl(void) {
  if (!vgw_digest_available()) skip_case("no OpenSSL (libcrypto.so.3) on this machine");
}

static void hex(const uint8_t *b, int n, char *out) {
  for (int i = 0; i < n; i++) snprintf(out + 2 * i, 3, "%02x", b[i]);
}

static void check_digest(int alg, const char *data, size_t len, const char *want) {
  vgw_digest_t *d = vgw_digest_new(alg);
  CHECK(d != NULL);
  CHECK_EQ_INT(vgw_digest_update(d, data, len), 0);
  uint8_t out[32];
  char got[65];
  int n = vgw_digest_final(d, out, sizeof out);
  CHECK(n == (alg == VGW_DIGEST_MD5 ? 16 : 32));
  hex(out, n, got);
  CHECK(strcmp(got, want) == 0);
  vgw_digest_free(d);
}

static void vectors(void) {
  need_openssl();
  CHECK(vgw_digest_source() != NULL);
  check_digest(VGW_DIGEST_MD5, "", 0, "d41d8cd98f00b204e9800998ecf8427e");
  check_digest(VGW_DIGEST_MD5, "abc", 3, "900150983cd24fb0d6963f7d28e17f72");
  check_digest(VGW_DIGEST_SHA256, "", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  check_digest(VGW_DIGEST_SHA256, "abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

/* One update, and the same bytes in pieces cut at random points, give the same digest. */
static void split_updates(void) {
  need_openssl();
  enum { N = 300000 };
  static uint8_t buf[N];
  test_fill(buf, sizeof buf, 5);
  uint64_t s = 3;
  for (int alg = VGW_DIGEST_MD5; alg <= VGW_DIGEST_SHA256; alg++) {
    for (int round = 0; round < 20; round++) {
      size_t len = test_rand(&s) % N;
      uint8_t one[32], many[32];
      vgw_digest_t *a = vgw_digest_new(alg);
      vgw_digest_t *b = vgw_digest_new(alg);
      CHECK(a && b);
      CHECK_EQ_INT(vgw_digest_update(a, buf, len), 0);
      for (size_t at = 0; at < len;) {
        size_t piece = 1 + test_rand(&s) % 70000;
        if (piece > len - at) piece = len - at;
        CHECK_EQ_INT(vgw_digest_update(b, buf + at, piece), 0);
        at += piece;
      }
      int n1 = vgw_digest_final(a, one, sizeof one);
      int n2 = vgw_digest_final(b, many, sizeof many);
      CHECK(n1 > 0 && n1 == n2);
      CHECK(memcmp(one, many, (size_t)n1) == 0);
      vgw_digest_free(a);
      vgw_digest_free(b);
    }
  }
}

typedef struct job {
  int alg;
  const uint8_t *data;
  size_t len;
  uint8_t out[32];
  int n;
} job_t;

static void *hash_job(void *arg) {
  job_t *j = arg;
  vgw_digest_t *d = vgw_digest_new(j->alg);
  if (!d) return NULL;
  for (size_t at = 0; at < j->len; at += 4096) {
    size_t n = j->len - at < 4096 ? j->len - at : 4096;
    if (vgw_digest_update(d, j->data + at, n) != 0) break;
  }
  j->n = vgw_digest_final(d, j->out, sizeof j->out);
  vgw_digest_free(d);
  return NULL;
}

/* Contexts are independent: MD5 and SHA-256 of the same bytes on two threads at once match the
 * digests computed one after the other. */
static void parallel_contexts(void) {
  need_openssl();
  enum { N = 1 << 20 };
  static uint8_t buf[N];
  test_fill(buf, sizeof buf, 9);
  job_t jobs[4] = {{VGW_DIGEST_MD5, buf, N, {0}, 0},
                   {VGW_DIGEST_SHA256, buf, N, {0}, 0},
                   {VGW_DIGEST_MD5, buf, N, {0}, 0},
                   {VGW_DIGEST_SHA256, buf, N, {0}, 0}};
  pthread_t t[2];
  CHECK_EQ_INT(pthread_create(&t[0], NULL, hash_job, &jobs[0]), 0);
  CHECK_EQ_INT(pthread_create(&t[1], NULL, hash_job, &jobs[1]), 0);
  hash_job(&jobs[2]);
  hash_job(&jobs[3]);
  CHECK_EQ_INT(pthread_join(t[0], NULL), 0);
  CHECK_EQ_INT(pthread_join(t[1], NULL), 0);
  CHECK(jobs[0].n == 16 && jobs[1].n == 32);
  CHECK(memcmp(jobs[0].out, jobs[2].out, 16) == 0);
  CHECK(memcmp(jobs[1].out, jobs[3].out, 32) == 0);
}

static void refusals(void) {
  need_openssl();
  CHECK(vgw_digest_new(0) == NULL);
  CHECK(vgw_digest_new(3) == NULL);
  vgw_digest_t *d = vgw_digest_new(VGW_DIGEST_SHA256);
  CHECK(d != NULL);
  uint8_t out[32];
  CHECK_EQ_INT(vgw_digest_final(d, out, 16), -ENOSPC);
  CHECK_EQ_INT(vgw_digest_update(d, NULL, 1), -EINVAL);
  CHECK_EQ_INT(vgw_digest_final(d, out, sizeof out), 32);
  CHECK_EQ_INT(vgw_digest_final(d, out, sizeof out), -EINVAL);
  CHECK_EQ_INT(vgw_digest_update(d, "x", 1), -EINVAL);
  vgw_digest_free(d);
  vgw_digest_free(NULL);
}

TEST_MAIN(CASE(vectors), CASE(split_updates), CASE(parallel_contexts), CASE(refusals))
