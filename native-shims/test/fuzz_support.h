/* fuzz_support.h — run count, seed and value generators shared by the fuzz_*.c drivers
 * (header-only: every test source with a main() becomes its own binary).
 *   ./fuzz_x <case> [iterations]    iterations: argv[2], else $FUZZ_RUNS, else the case default
 *   FUZZ_SEED=<n>                   seed (default fixed, so CI runs are reproducible)
 * Each case prints "fuzz <name>: <runs> cases, seed <seed>" on stderr; a failure shows the seed
 * to replay with. */
#ifndef VGW_FUZZ_SUPPORT_H
#define VGW_FUZZ_SUPPORT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "harness.h"

static uint64_t fuzz_argv_runs;
static struct timespec fuzz_t0;

static inline void fuzz_args(int argc, char **argv) {
  if (argc > 2) fuzz_argv_runs = strtoull(argv[2], NULL, 10);
}

/* main() of a fuzz driver: like TEST_MAIN, but argv[2] is the iteration count (see above). */
#define FUZZ_MAIN(...)                                                                     \
  int main(int argc, char **argv) {                                                        \
    static const test_case_t cases_[] = {__VA_ARGS__};                                     \
    fuzz_args(argc, argv);                                                                 \
    return run_cases(cases_, sizeof cases_ / sizeof cases_[0], argc > 2 ? 2 : argc, argv); \
  }

/* Iterations for a case: argv, then $FUZZ_RUNS, then the CI-sized default. */
static inline uint64_t fuzz_runs(uint64_t ci_default) {
  clock_gettime(CLOCK_MONOTONIC, &fuzz_t0);
  if (fuzz_argv_runs > 0) return fuzz_argv_runs;
  const char *env = getenv("FUZZ_RUNS");
  uint64_t n = env ? strtoull(env, NULL, 10) : 0;
  return n > 0 ? n : ci_default;
}

static inline uint64_t fuzz_seed(const char *name) {
  const char *env = getenv("FUZZ_SEED");
  uint64_t seed = env ? strtoull(env, NULL, 0) : 0x5eed5eedull;
  fprintf(stderr, "fuzz %s: seed %llu (replay with FUZZ_SEED)\n", name, (unsigned long long)seed);
  for (const char *p = name; *p; p++) seed = (seed ^ (uint8_t)*p) * 0x100000001b3ull; /* per case */
  return seed | 1;
}

static inline void fuzz_report(const char *name, uint64_t runs) {
  struct timespec t1;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double s = (double)(t1.tv_sec - fuzz_t0.tv_sec) + (double)(t1.tv_nsec - fuzz_t0.tv_nsec) / 1e9;
  fprintf(stderr, "fuzz %s: %llu cases in %.2f s\n", name, (unsigned long long)runs, s);
  printf("FUZZ %s %llu %.3f\n", name, (unsigned long long)runs, s); /* parsed by stress/fuzz.mjs */
  fflush(stdout);
}

/* A u64 biased to edges: 0, 1, all ones, powers of two and their neighbours, or noise. */
static inline uint64_t fuzz_edge_u64(uint64_t *rng) {
  uint64_t r = test_rand(rng);
  switch (r % 6) {
    case 0: return 0;
    case 1: return ~0ull - (r >> 8) % 3;
    case 2: return (1ull << ((r >> 8) % 64)) + ((r >> 16) % 3) - 1;
    case 3: return (r >> 8) % 4096;
    default: return test_rand(rng);
  }
}

/* A heap copy of exactly n bytes plus the NUL: ASan reports any read past it. */
static inline char *fuzz_exact_copy(const char *s, size_t n) {
  char *p = malloc(n + 1);
  CHECK(p != NULL);
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

#endif
