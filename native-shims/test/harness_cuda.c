/* harness_cuda.c — see harness_cuda.h. */
#include "harness_cuda.h"

#include <dlfcn.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

const char *fake_cudart_path(void) {
  static char path[PATH_MAX];
  if (path[0]) return path;
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  CHECK(n > 0);
  exe[n] = '\0';
  snprintf(path, sizeof path, "%s/libvgw_fake_cudart.so", dirname(exe));
  return path;
}

void use_fake_cudart(void) { CHECK(setenv("VGWRDMA_CUDA_LIB", fake_cudart_path(), 1) == 0); }

static void *fake_sym(const char *name) {
  void *h = dlopen(fake_cudart_path(), RTLD_NOW | RTLD_NOLOAD);
  CHECK(h != NULL); /* loaded by the shims already */
  void *f = dlsym(h, name);
  dlclose(h); /* drops only the reference RTLD_NOLOAD took */
  CHECK(f != NULL);
  return f;
}

int fake_live(void) {
  int (*f)(void);
  void *p = fake_sym("fake_cudart_live");
  memcpy(&f, &p, sizeof p);
  return f();
}

unsigned fake_calls(const char *name) {
  unsigned (*f)(const char *);
  void *p = fake_sym("fake_cudart_calls");
  memcpy(&f, &p, sizeof p);
  return f(name);
}

void *fake_cuda_malloc(size_t n) {
  int (*f)(void **, size_t);
  void *p = fake_sym("cudaMalloc");
  memcpy(&f, &p, sizeof p);
  void *out = NULL;
  CHECK(f(&out, n) == 0);
  return out;
}

void fake_cuda_free(void *ptr) {
  int (*f)(void *);
  void *p = fake_sym("cudaFree");
  memcpy(&f, &p, sizeof p);
  CHECK(f(ptr) == 0);
}
