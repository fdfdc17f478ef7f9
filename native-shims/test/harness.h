/*
 * harness.h — tiny test harness for the C tests. Each test binary is one GROUP of named CASES:
 *   ./test_x --list     prints one case name per line
 *   ./test_x <case>     runs that case (exit 0 = pass)
 *   ./test_x            runs every case
 * The vitest wrapper (c-tests.test.ts) turns each case into one vitest test.
 * CHECK failures print file:line and the expression, then exit 1 (no recovery: a failed check
 * means the process state is suspect).
 */
#ifndef VGW_TEST_HARNESS_H
#define VGW_TEST_HARNESS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct test_case {
  const char *name;
  void (*fn)(void);
} test_case_t;

#define CHECK(cond)                                                                   \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);        \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                                          \
  do {                                                                                              \
    long long va_ = (long long)(a), vb_ = (long long)(b);                                           \
    if (va_ != vb_) {                                                                               \
      fprintf(stderr, "%s:%d: CHECK_EQ failed: %s = %lld, %s = %lld\n", __FILE__, __LINE__, #a, va_, \
              #b, vb_);                                                                             \
      exit(1);                                                                                      \
    }                                                                                               \
  } while (0)

/* Run a case table per argv (see above). Returns the process exit code. */
int run_cases(const test_case_t *cases, size_t n, int argc, char **argv);

/* A case whose name is its function's name. */
#define CASE(fn) {#fn, fn}
/* The whole main() of a test binary: TEST_MAIN(CASE(fn), {"name", fn}, ...) runs that table. */
#define TEST_MAIN(...)                                                       \
  int main(int argc, char **argv) {                                          \
    static const test_case_t cases_[] = {__VA_ARGS__};                       \
    return run_cases(cases_, sizeof cases_ / sizeof cases_[0], argc, argv); \
  }

/* Skip the running case with a reason (exit 77, which the wrapper reports as skipped). */
void skip_case(const char *reason) __attribute__((noreturn));

/* Deterministic xorshift PRNG for sizes/offsets/patterns; seed printed on failure by callers. */
uint64_t test_rand(uint64_t *state);
void test_fill(void *p, size_t n, uint64_t seed);
/* 64-bit content hash (position-sensitive) to compare ranges across processes. */
uint64_t test_hash(const void *p, size_t n);

#endif
