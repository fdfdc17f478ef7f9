/* harness.c — case runner and helpers for the C tests (see harness.h). */
#include <stdint.h>
#include <string.h>

#include "harness.h"

int run_cases(const test_case_t *cases, size_t n, int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--list") == 0) {
    for (size_t i = 0; i < n; i++) printf("%s\n", cases[i].name);
    return 0;
  }
  int ran = 0;
  for (size_t i = 0; i < n; i++) {
    if (argc > 1 && strcmp(argv[1], cases[i].name) != 0) continue;
    fprintf(stderr, "[ RUN  ] %s\n", cases[i].name);
    cases[i].fn();
    fprintf(stderr, "[  OK  ] %s\n", cases[i].name);
    ran++;
  }
  if (ran == 0) {
    fprintf(stderr, "no case named %s\n", argc > 1 ? argv[1] : "(none)");
    return 2;
  }
  return 0;
}

void skip_case(const char *reason) {
  printf("SKIP: %s\n", reason);
  fflush(stdout);
  exit(77);
}

uint64_t test_rand(uint64_t *s) {
  uint64_t x = *s ? *s : 0x9e3779b97f4a7c15ull;
  x ^= x << 13;
  x ^= x >> 7;
  x ^= x << 17;
  *s = x;
  return x;
}

void test_fill(void *p, size_t n, uint64_t seed) {
  uint8_t *b = p;
  uint64_t s = seed | 1;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t v = test_rand(&s);
    memcpy(b + i, &v, 8);
  }
  for (; i < n; i++) b[i] = (uint8_t)test_rand(&s);
}

uint64_t test_hash(const void *p, size_t n) {
  const uint8_t *b = p;
  uint64_t h = 0xcbf29ce484222325ull ^ n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t v;
    memcpy(&v, b + i, 8);
    h = (h ^ v) * 0x100000001b3ull;
    h ^= h >> 29;
  }
  for (; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
  return h;
}
